import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';

export const webhookKeysBySeq = inBaseline(async (db: Kysely<unknown>) => {
  // A delivery log points at its event by the event's seq, an attempt at its log by the log's
  // seq (neither id of theirs shows in an attempt or a log: the log's event_id is read from
  // the event), and an attempt at its URL, kept once in webhook_urls, by that URL's seq.
  await sql`CREATE TABLE webhook_urls (seq integer PRIMARY KEY, url text NOT NULL UNIQUE)`.execute(db);
  await sql`INSERT INTO webhook_urls (url) SELECT DISTINCT url FROM webhook_attempts ORDER BY url`.execute(db);
  await rebuildTables(db, [
    {
      table: 'webhook_logs',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
            event_seq integer NOT NULL REFERENCES events(seq), event_type text NOT NULL, status text NOT NULL, http_status_code integer,
            response_body text, attempt_count integer NOT NULL DEFAULT 0, next_retry_at text, delivered_at text`,
      copy: sql`SELECT l.seq, l.id, l.developer_id, e.seq, l.event_type, l.status, l.http_status_code, l.response_body, l.attempt_count,
            l.next_retry_at, l.delivered_at FROM webhook_logs l JOIN events e ON e.id = l.event_id`,
      indexes: [
        sql`CREATE INDEX webhook_logs_due ON webhook_logs (developer_id, next_retry_at, seq) WHERE next_retry_at IS NOT NULL`,
        sql`CREATE INDEX webhook_logs_developer ON webhook_logs (developer_id)`,
        sql`CREATE INDEX webhook_logs_developer_type ON webhook_logs (developer_id, event_type)`,
        sql`CREATE INDEX webhook_logs_developer_status ON webhook_logs (developer_id, status) WHERE status != 'DELIVERED'`,
      ],
    },
    {
      table: 'webhook_attempts',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL, log_seq integer NOT NULL REFERENCES webhook_logs(seq),
            attempt_number integer NOT NULL, manual integer NOT NULL, url_seq integer NOT NULL REFERENCES webhook_urls(seq),
            http_status_code integer, response_body text, error text, duration_ms integer NOT NULL, created_at text NOT NULL`,
      copy: sql`SELECT a.seq, a.id, l.seq, a.attempt_number, a.manual, u.seq, a.http_status_code, a.response_body, a.error, a.duration_ms,
            a.created_at FROM webhook_attempts a JOIN webhook_logs l ON l.id = a.log_id JOIN webhook_urls u ON u.url = a.url`,
      indexes: [sql`CREATE INDEX webhook_attempts_log ON webhook_attempts (log_seq)`],
    },
  ]);
});
