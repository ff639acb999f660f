import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import { webhookTableEvents, webhookTableLogs, webhookTableAttempts, webhookLogsIndexes } from './sqlite-shapes.js';

/** A canonical UUID's shape as a LIKE pattern: 36 characters, dashes where a UUID has them. */
const UUID_SHAPE = [8, 4, 4, 4, 12].map((n) => '_'.repeat(n)).join('-');

/**
 * SQLite's spelling, frozen here, of the stored form events/stored.ts gave an id when this migration
 * shipped: a canonical UUID (lowercase hex) as its 16 bytes, any other id as its text. A migration
 * never reads live engine code, which may change after it has run.
 */
const storedId = (column: string) =>
  sql`CASE WHEN ${sql.ref(column)} LIKE ${UUID_SHAPE} AND ltrim(replace(${sql.ref(column)}, '-', ''), '0123456789abcdef') = ''
    THEN unhex(replace(${sql.ref(column)}, '-', '')) ELSE ${sql.ref(column)} END`;

export const webhookIdsAsBytes = inBaseline(async (db: Kysely<unknown>) => {
  // The public ids of events, delivery logs and attempts (each on its row, and those of events and
  // logs again in their unique index) are kept as their 16 bytes instead of 36 characters of text
  // when they are in the sandbox's canonical form, as events/stored.ts writes them; any other id
  // stays text, so every id reads back as it was. Every row and seq is kept.
  await rebuildTables(db, [
    {
      table: 'events',
      create: webhookTableEvents(sql`blob`),
      copy: sql`SELECT seq, ${storedId('id')}, developer_seq, type_code, payload, transaction_seq, created_at_ms FROM events`,
    },
    {
      table: 'webhook_logs',
      create: webhookTableLogs(sql`blob`),
      copy: sql`SELECT seq, ${storedId('id')}, developer_seq, event_seq, event_type_code, status, http_status_code, response_body, attempt_count,
            next_retry_at_ms, delivered_at_ms FROM webhook_logs`,
      indexes: webhookLogsIndexes(),
    },
    {
      table: 'webhook_attempts',
      create: webhookTableAttempts(sql`blob`),
      copy: sql`SELECT seq, ${storedId('id')}, log_seq, attempt_number, manual, url_seq, http_status_code, response_body, error, duration_ms, created_at_ms
            FROM webhook_attempts`,
      indexes: [sql`CREATE INDEX webhook_attempts_log ON webhook_attempts (log_seq)`],
    },
  ]);
});
