import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const leanLedgerRows = inBaseline(async (db: Kysely<unknown>) => {
  // A ledger event of a SETTLED transaction stores no payload (''): it is built from the
  // transaction at transaction_seq whenever it is sent or shown (events/ledger-payload.ts).
  // Events stored before keep their payload, which stays what they send.
  await db.schema.alterTable('events').addColumn('transaction_seq', 'integer').execute();

  // Every index entry ends in the rowid (seq), so an index that names seq last stored it twice:
  // the same indexes without it read in the same order (the lists' plans are asserted in tests).
  for (const [name, table, columns] of [
    ['transactions_wallet', 'transactions', ['wallet_id']],
    ['transactions_wallet_time', 'transactions', ['wallet_id', 'created_at']],
    ['transactions_wallet_type_time', 'transactions', ['wallet_id', 'type', 'created_at']],
    ['entries_account', 'entries', ['account_id']],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();
  }

  // Nothing looks an attempt up by its id, and nothing references it: its unique index (a
  // 36-character key per attempt) goes. SQLite cannot drop a UNIQUE constraint, so the table is
  // rebuilt, its rows and seqs kept.
  await sql`CREATE TABLE webhook_attempts_0015 (
        seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL, log_id text NOT NULL REFERENCES webhook_logs(id),
        attempt_number integer NOT NULL, manual integer NOT NULL, url text NOT NULL, http_status_code integer,
        response_body text, error text, duration_ms integer NOT NULL, created_at text NOT NULL)`.execute(db);
  await sql`INSERT INTO webhook_attempts_0015 SELECT seq, id, log_id, attempt_number, manual, url, http_status_code,
        CASE WHEN http_status_code BETWEEN 200 AND 299 AND response_body = '{"received":true,"signature_valid":true}' THEN NULL ELSE response_body END,
        error, duration_ms, created_at FROM webhook_attempts`.execute(db);
  await sql`DROP TABLE webhook_attempts`.execute(db);
  await sql`ALTER TABLE webhook_attempts_0015 RENAME TO webhook_attempts`.execute(db);
  await db.schema.createIndex('webhook_attempts_log').on('webhook_attempts').column('log_id').execute();
  // An entry's time is its posting's, a delivery log's its event's: their copies go.
  await db.schema.alterTable('entries').dropColumn('created_at').execute();
  await db.schema.alterTable('webhook_logs').dropColumn('created_at').execute();

  // The built-in receiver's standard answer on logs stored before, as attempts now store it (events/answers.ts).
  await sql`UPDATE webhook_logs SET response_body = NULL
        WHERE http_status_code BETWEEN 200 AND 299 AND response_body = '{"received":true,"signature_valid":true}'`.execute(
    db,
  );
});
