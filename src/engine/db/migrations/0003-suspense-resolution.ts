import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const suspenseResolution = inBaseline(async (db: Kysely<unknown>) => {
  await db.schema.alterTable('suspense_items').addColumn('resolution_action', 'text').execute();
  await db.schema.alterTable('suspense_items').addColumn('resolution_transaction_id', 'text').execute();
  await db.schema
    .createIndex('suspense_items_developer')
    .on('suspense_items')
    .columns(['developer_id', 'status', 'reason'])
    .execute();
});
