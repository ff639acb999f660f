import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const suspenseNotes = inBaseline(async (db: Kysely<unknown>) => {
  // Notes belong to their item (no developer column of their own): a reset removes them with it.
  await db.schema
    .createTable('suspense_notes')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('suspense_seq', 'integer', (c) => c.notNull().references('suspense_items.seq'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull().references('developers.id'))
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('suspense_notes_item').on('suspense_notes').columns(['suspense_seq', 'seq']).execute();
});
