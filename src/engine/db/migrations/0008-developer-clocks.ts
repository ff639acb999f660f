import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const developerClocks = inBaseline(async (db: Kysely<unknown>) => {
  // Each developer has its own virtual clock (decisions: Tenancy, clocks and reset). Every
  // developer starts where the one sandbox-wide clock stood, so no developer's time runs backwards.
  await db.schema
    .alterTable('developers')
    .addColumn('clock_offset_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE developers SET clock_offset_ms = coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'clock_offset_ms'), 0)`.execute(
    db,
  );
  await sql`DELETE FROM settings WHERE key = 'clock_offset_ms'`.execute(db);
  // Due deliveries are chosen per developer (on that developer's clock), oldest first.
  await db.schema.dropIndex('webhook_logs_due').execute();
  await db.schema
    .createIndex('webhook_logs_due')
    .on('webhook_logs')
    .columns(['developer_id', 'next_retry_at', 'seq'])
    .where(sql.ref('next_retry_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('payouts_developer_due')
    .on('payouts')
    .columns(['developer_id', 'status', 'due_at'])
    .execute();
});
