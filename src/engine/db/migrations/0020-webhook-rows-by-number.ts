import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import {
  webhookTableEvents,
  webhookTableLogs,
  webhookTableAttempts,
  webhookLogsIndexes,
  epochMs,
} from './sqlite-shapes.js';

/**
 * The event types as this migration numbered them, frozen here: a migration never reads live engine
 * code, which may change after it has run. The engine's list (events/stored.ts) only appends, and a
 * test checks it still starts with these.
 */
export const EVENT_TYPE_CODES_AT_0020 = [
  'ledger.credit',
  'ledger.debit',
  'transfer.completed',
  'transfer.failed',
  'suspense.created',
  'suspense.resolved',
  'agent.triggered',
  'agent.failed',
  'wallet.closed',
] as const;

export const webhookRowsByNumber = inBaseline(async (db: Kysely<unknown>) => {
  // Events, delivery logs and attempts (three rows for each event, most of the database after
  // the transactions) carried their developer's 36-character id, their event type's name and
  // 24-character ISO times, on each row and at the head of each log index. A developer gets a
  // number (developers.seq, given in the order they were created; a new one takes the next);
  // these rows name their developer by it, their event type by its code (events/stored.ts:
  // the event types in a fixed order that only ever grows) and their times as epoch
  // milliseconds, all read back as the same id, name and ISO text. Every row and seq is kept.
  await sql`ALTER TABLE developers ADD COLUMN seq integer`.execute(db);
  await sql`UPDATE developers SET seq = (SELECT count(*) FROM developers d
        WHERE d.created_at < developers.created_at OR (d.created_at = developers.created_at AND d.rowid <= developers.rowid))`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX developers_seq ON developers (seq)`.execute(db);
  const code = (column: string) =>
    sql`CASE ${sql.ref(column)} ${sql.join(
      EVENT_TYPE_CODES_AT_0020.map((type, i) => sql`WHEN ${sql.lit(type)} THEN ${sql.lit(i)}`),
      sql` `,
    )} END`;
  const ms = (column: string) => epochMs(sql.ref(column));
  await rebuildTables(db, [
    {
      table: 'events',
      create: webhookTableEvents(sql`text`),
      copy: sql`SELECT e.seq, e.id, d.seq, ${code('e.type')}, e.payload, e.transaction_seq, ${ms('e.created_at')}
            FROM events e JOIN developers d ON d.id = e.developer_id`,
    },
    {
      table: 'webhook_logs',
      create: webhookTableLogs(sql`text`),
      copy: sql`SELECT l.seq, l.id, d.seq, l.event_seq, ${code('l.event_type')}, l.status, l.http_status_code, l.response_body, l.attempt_count,
            ${ms('l.next_retry_at')}, ${ms('l.delivered_at')} FROM webhook_logs l JOIN developers d ON d.id = l.developer_id`,
      indexes: webhookLogsIndexes(),
    },
    {
      table: 'webhook_attempts',
      create: webhookTableAttempts(sql`text`),
      copy: sql`SELECT seq, id, log_seq, attempt_number, manual, url_seq, http_status_code, response_body, error, duration_ms, ${ms('created_at')}
            FROM webhook_attempts`,
      indexes: [sql`CREATE INDEX webhook_attempts_log ON webhook_attempts (log_seq)`],
    },
  ]);
});
