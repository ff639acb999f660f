import { type RawBuilder, sql } from 'kysely';

// Tables and indexes that more than one of SQLite's rebuilds (sqlite-rebuild.ts) write alike.

/** Events, delivery logs and attempts as 0020 and 0020b rebuild them, with the type of their `id` (text, then blob). */
export const webhookTableEvents = (
  id: RawBuilder<unknown>,
) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id ${id} NOT NULL UNIQUE,
  developer_seq integer NOT NULL REFERENCES developers(seq), type_code integer NOT NULL, payload text NOT NULL, transaction_seq integer,
  created_at_ms integer NOT NULL`;
export const webhookTableLogs = (
  id: RawBuilder<unknown>,
) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id ${id} NOT NULL UNIQUE,
  developer_seq integer NOT NULL REFERENCES developers(seq), event_seq integer NOT NULL REFERENCES events(seq), event_type_code integer NOT NULL,
  status text NOT NULL, http_status_code integer, response_body text, attempt_count integer NOT NULL DEFAULT 0, next_retry_at_ms integer,
  delivered_at_ms integer`;
export const webhookTableAttempts = (
  id: RawBuilder<unknown>,
) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id ${id} NOT NULL,
  log_seq integer NOT NULL REFERENCES webhook_logs(seq), attempt_number integer NOT NULL, manual integer NOT NULL,
  url_seq integer NOT NULL REFERENCES webhook_urls(seq), http_status_code integer, response_body text, error text, duration_ms integer NOT NULL,
  created_at_ms integer NOT NULL`;

/** The delivery logs' indexes as 0020 and 0020b make them. */
export const webhookLogsIndexes = () => [
  sql`CREATE INDEX webhook_logs_due ON webhook_logs (developer_seq, next_retry_at_ms, seq) WHERE next_retry_at_ms IS NOT NULL`,
  sql`CREATE INDEX webhook_logs_developer ON webhook_logs (developer_seq)`,
  sql`CREATE INDEX webhook_logs_developer_type ON webhook_logs (developer_seq, event_type_code)`,
  sql`CREATE INDEX webhook_logs_developer_status ON webhook_logs (developer_seq, status) WHERE status != 'DELIVERED'`,
];

/** The transactions table as 0016a and 0016c rebuild it (keyed to postings and entries by seq), with `updated_at`'s constraint. */
export const transactionsTable = (
  updatedAt: RawBuilder<unknown>,
) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE,
  developer_id text NOT NULL REFERENCES developers(id), wallet_id text NOT NULL REFERENCES wallets(id),
  posting_seq integer NOT NULL REFERENCES postings(seq), entry_seq integer NOT NULL REFERENCES entries(seq), type text NOT NULL,
  amount integer NOT NULL, balance_before integer NOT NULL, balance_after integer NOT NULL, currency text NOT NULL, status text NOT NULL,
  provider_reference text NOT NULL, sender_name text NOT NULL, sender_account text NOT NULL, raw_narration text NOT NULL,
  service_intelligence text, destination_account_number text, destination_bank_code text, destination_account_name text, fee integer,
  agent_id text, created_at text NOT NULL, updated_at text ${updatedAt}`;

/** Its indexes (as 0015 left them). */
export const transactionsIndexes = () => [
  sql`CREATE INDEX transactions_wallet ON transactions (wallet_id)`,
  sql`CREATE INDEX transactions_wallet_time ON transactions (wallet_id, created_at)`,
  sql`CREATE INDEX transactions_wallet_type_time ON transactions (wallet_id, type, created_at)`,
];

/** An ISO time as `Date.prototype.toISOString` writes it ('2026-11-23T19:59:16.684Z'), as integer milliseconds since the epoch. */
export const epochMs = (iso: RawBuilder<unknown>) =>
  sql`unixepoch(${iso}) * 1000 + CAST(substr(${iso}, 21, 3) AS INTEGER)`;

/** True when the ISO time comes back as the same text from its milliseconds, as the API shows it. */
export const sameTime = (iso: RawBuilder<unknown>) =>
  sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${epochMs(iso)}) / 1000.0, 'unixepoch') = ${iso}`;

/** Its indexes as 0019a and 0019b make them: a wallet's transactions by its account's seq. */
export const accountTransactionsIndexes = () => [
  sql`CREATE INDEX transactions_wallet ON transactions (account_seq)`,
  sql`CREATE INDEX transactions_wallet_time ON transactions (account_seq, created_at)`,
  sql`CREATE INDEX transactions_wallet_type_time ON transactions (account_seq, type, created_at)`,
];
