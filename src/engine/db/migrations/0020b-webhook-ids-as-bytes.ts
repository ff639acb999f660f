import { type Kysely, sql } from 'kysely';
import { storedIdSql } from '../../events/stored.js';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import { webhookTableEvents, webhookTableLogs, webhookTableAttempts, webhookLogsIndexes } from './sqlite-shapes.js';

export const webhookIdsAsBytes = inBaseline(async (db: Kysely<unknown>) => {
  // The public ids of events, delivery logs and attempts (each on its row, and those of events and
  // logs again in their unique index) are kept as their 16 bytes instead of 36 characters of text
  // when they are in the sandbox's canonical form, as events/stored.ts writes them; any other id
  // stays text, so every id reads back as it was. Every row and seq is kept.
  await rebuildTables(db, [
    {
      table: 'events',
      create: webhookTableEvents(sql`blob`),
      copy: sql`SELECT seq, ${storedIdSql(db, 'id')}, developer_seq, type_code, payload, transaction_seq, created_at_ms FROM events`,
    },
    {
      table: 'webhook_logs',
      create: webhookTableLogs(sql`blob`),
      copy: sql`SELECT seq, ${storedIdSql(db, 'id')}, developer_seq, event_seq, event_type_code, status, http_status_code, response_body, attempt_count,
            next_retry_at_ms, delivered_at_ms FROM webhook_logs`,
      indexes: webhookLogsIndexes(),
    },
    {
      table: 'webhook_attempts',
      create: webhookTableAttempts(sql`blob`),
      copy: sql`SELECT seq, ${storedIdSql(db, 'id')}, log_seq, attempt_number, manual, url_seq, http_status_code, response_body, error, duration_ms, created_at_ms
            FROM webhook_attempts`,
      indexes: [sql`CREATE INDEX webhook_attempts_log ON webhook_attempts (log_seq)`],
    },
  ]);
});
