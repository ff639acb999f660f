import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const analysisCache = inBaseline(async (db: Kysely<unknown>) => {
  // A model-backed analyser's answers, so a replay or a seeded run gets the answer it got before.
  // Not developer data: reset keeps it, like the clock.
  await db.schema
    .createTable('analysis_cache')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
});
