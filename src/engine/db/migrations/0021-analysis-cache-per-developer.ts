import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const analysisCachePerDeveloper = inBaseline(async (db: Kysely<unknown>) => {
  // Each developer's answers apart: a shared one let a developer learn another's narrations from
  // what came back at once, and choose the answer another's payments got. The rows kept so far
  // belong to nobody in particular; being a cache, they go, and the model is asked again.
  await db.schema.dropTable('analysis_cache').execute();
  await db.schema
    .createTable('analysis_cache')
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('analysis_cache_key', ['developer_id', 'key'])
    .execute();
});
