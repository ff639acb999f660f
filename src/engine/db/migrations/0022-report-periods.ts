import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const reportPeriods = inBaseline(async (db: Kysely<unknown>) => {
  // A report's period is read through these (engine/report): a developer's suspense items and
  // events by time, and each event's deliveries, so its cost follows the period's rows and not
  // the ledger's size. Transactions already have a time index per wallet.
  await db.schema
    .createIndex('suspense_items_developer_time')
    .on('suspense_items')
    .columns(['developer_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('events_developer_time')
    .on('events')
    .columns(['developer_seq', 'created_at_ms'])
    .execute();
  await db.schema.createIndex('webhook_logs_event').on('webhook_logs').column('event_seq').execute();
});
