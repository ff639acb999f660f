import { type Kysely, type Migration, type MigrationProvider, type RawBuilder, sql } from 'kysely';
// Append-only (a code once given never changes), so 0020 numbers the types as every later write does.
import { EVENT_TYPE_CODES, storedIdSql } from '../events/stored.js';

/** Migrations run in key order at every start. Never edit one that has shipped: add the next. */
const migrations: Record<string, Migration> = {
  '0001_core': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('developers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('business_name', 'text', (c) => c.notNull())
        .addColumn('webhook_url', 'text')
        .addColumn('webhook_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();

      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('balance', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('floor_zero', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('accounts_floor', sql`floor_zero = 0 OR balance >= 0`)
        .execute();
      await db.schema
        .createIndex('accounts_system_kind')
        .on('accounts')
        .columns(['developer_id', 'kind'])
        .unique()
        .where(sql.ref('kind'), '!=', 'WALLET')
        .execute();

      await db.schema
        .createTable('wallets')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique().references('accounts.id'))
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('customer_reference', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('account_number', 'text', (c) => c.notNull().unique())
        .addColumn('bank_code', 'text', (c) => c.notNull())
        .addColumn('bank_name', 'text', (c) => c.notNull())
        .addColumn('account_name', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('system_prompt', 'text', (c) => c.notNull())
        .addColumn('allow_transfers_out', 'integer', (c) => c.notNull())
        .addColumn('sub_account_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .addUniqueConstraint('wallets_customer_reference', ['developer_id', 'customer_reference'])
        .execute();

      await db.schema
        .createTable('postings')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('entries')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('posting_id', 'text', (c) => c.notNull().references('postings.id'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('entries_account').on('entries').columns(['account_id', 'seq']).execute();
      await db.schema.createIndex('entries_posting').on('entries').column('posting_id').execute();

      await db.schema
        .createTable('transactions')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
        .addColumn('posting_id', 'text', (c) => c.notNull().references('postings.id'))
        .addColumn('entry_id', 'text', (c) => c.notNull().references('entries.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('balance_before', 'integer', (c) => c.notNull())
        .addColumn('balance_after', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provider_reference', 'text', (c) => c.notNull())
        .addColumn('sender_name', 'text', (c) => c.notNull())
        .addColumn('sender_account', 'text', (c) => c.notNull())
        .addColumn('raw_narration', 'text', (c) => c.notNull())
        .addColumn('service_intelligence', 'text')
        .addColumn('destination_account_number', 'text')
        .addColumn('destination_bank_code', 'text')
        .addColumn('destination_account_name', 'text')
        .addColumn('fee', 'integer')
        .addColumn('agent_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('transactions_wallet').on('transactions').columns(['wallet_id', 'seq']).execute();

      await db.schema
        .createTable('events')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_logs')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('http_status_code', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_retry_at', 'text')
        .addColumn('delivered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_logs_due').on('webhook_logs').columns(['status', 'next_retry_at']).execute();

      await db.schema
        .createTable('suspense_items')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('wallet_id', 'text', (c) => c.references('wallets.id'))
        .addColumn('account_number', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('sender_name', 'text', (c) => c.notNull())
        .addColumn('sender_account', 'text', (c) => c.notNull())
        .addColumn('sender_bank_code', 'text', (c) => c.notNull())
        .addColumn('raw_narration', 'text', (c) => c.notNull())
        .addColumn('provider_reference', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('raw_payload', 'text', (c) => c.notNull())
        .addColumn('service_intelligence', 'text')
        .addColumn('posting_id', 'text', (c) => c.notNull().references('postings.id'))
        .addColumn('resolved_at', 'text')
        .addColumn('resolution_note', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('inbound_transfers')
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('provider_reference', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbound_transfers_pk', ['developer_id', 'provider_reference'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['developer_id', 'method', 'path', 'key'])
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_payouts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payouts')
        .addColumn('transaction_id', 'text', (c) => c.primaryKey().references('transactions.id'))
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
        .addColumn('fee_transaction_id', 'text', (c) => c.notNull().references('transactions.id'))
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('fee', 'integer', (c) => c.notNull())
        .addColumn('destination_account_number', 'text', (c) => c.notNull())
        .addColumn('destination_bank_code', 'text', (c) => c.notNull())
        .addColumn('destination_account_name', 'text', (c) => c.notNull())
        .addColumn('narration', 'text', (c) => c.notNull())
        .addColumn('provider_reference', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('due_at', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reversal_transaction_id', 'text', (c) => c.references('transactions.id'))
        .addColumn('resolved_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payouts_due').on('payouts').columns(['status', 'due_at']).execute();
    },
  },
  '0003_suspense_resolution': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('suspense_items').addColumn('resolution_action', 'text').execute();
      await db.schema.alterTable('suspense_items').addColumn('resolution_transaction_id', 'text').execute();
      await db.schema.createIndex('suspense_items_developer').on('suspense_items').columns(['developer_id', 'status', 'reason']).execute();
    },
  },
  '0004_webhooks': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('developers').addColumn('webhook_secret_previous', 'text').execute();
      await db.schema.alterTable('developers').addColumn('webhook_secret_previous_until', 'text').execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('log_id', 'text', (c) => c.notNull().references('webhook_logs.id'))
        .addColumn('attempt_number', 'integer', (c) => c.notNull())
        .addColumn('manual', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('http_status_code', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_attempts_log').on('webhook_attempts').columns(['log_id', 'seq']).execute();
      await db.schema
        .createTable('receiver_events')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('webhook_id', 'text')
        .addColumn('event_type', 'text')
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('signature_valid', 'integer', (c) => c.notNull())
        .addColumn('response_status', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('receiver_events_developer').on('receiver_events').columns(['developer_id', 'seq']).execute();
    },
  },
  '0005_agents': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('agents')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('threshold', 'integer')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('destination_wallet_id', 'text', (c) => c.references('wallets.id'))
        .addColumn('sweep_amount', 'integer')
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('trigger_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_triggered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agents_wallet').on('agents').columns(['wallet_id', 'seq']).execute();
      await db.schema
        .createTable('agent_runs')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.id'))
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('wallet_id', 'text', (c) => c.notNull())
        .addColumn('origin_transaction_id', 'text', (c) => c.notNull())
        .addColumn('cause_transaction_id', 'text', (c) => c.notNull())
        .addColumn('hop', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('effect', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text')
        .addColumn('error', 'text')
        .addColumn('balance', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agent_runs_agent').on('agent_runs').columns(['agent_id', 'seq']).execute();
    },
  },
  '0006_transaction_listing': {
    async up(db: Kysely<unknown>) {
      // Lists read in (created_at, seq) order per wallet, with or without a type filter.
      await db.schema.createIndex('transactions_wallet_time').on('transactions').columns(['wallet_id', 'created_at', 'seq']).execute();
      await db.schema.createIndex('transactions_wallet_type_time').on('transactions').columns(['wallet_id', 'type', 'created_at', 'seq']).execute();
      // `total` without counting a wallet's rows on every page.
      await db.schema
        .createTable('transaction_counts')
        .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('transaction_counts_pk', ['wallet_id', 'type'])
        .execute();
      await sql`INSERT INTO transaction_counts (wallet_id, type, n) SELECT wallet_id, type, count(*) FROM transactions GROUP BY wallet_id, type`.execute(db);
    },
  },
  '0007_due_deliveries_in_order': {
    async up(db: Kysely<unknown>) {
      // The dispatcher asks for the oldest due deliveries. With (status, next_retry_at) that meant
      // sorting every due row on each call: slow with a backlog. Only PENDING and FAILED deliveries
      // have a next_retry_at, so an index of just those, in order, answers with no sort.
      await db.schema.dropIndex('webhook_logs_due').execute();
      await db.schema.createIndex('webhook_logs_due').on('webhook_logs').columns(['next_retry_at', 'seq']).where(sql.ref('next_retry_at'), 'is not', null).execute();
    },
  },
  '0008_developer_clocks': {
    async up(db: Kysely<unknown>) {
      // Each developer has its own virtual clock (contract §8). Every developer starts where the
      // one sandbox-wide clock stood, so no developer's time runs backwards.
      await db.schema.alterTable('developers').addColumn('clock_offset_ms', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`UPDATE developers SET clock_offset_ms = coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'clock_offset_ms'), 0)`.execute(db);
      await sql`DELETE FROM settings WHERE key = 'clock_offset_ms'`.execute(db);
      // Due deliveries are chosen per developer (on that developer's clock), oldest first.
      await db.schema.dropIndex('webhook_logs_due').execute();
      await db.schema
        .createIndex('webhook_logs_due')
        .on('webhook_logs')
        .columns(['developer_id', 'next_retry_at', 'seq'])
        .where(sql.ref('next_retry_at'), 'is not', null)
        .execute();
      await db.schema.createIndex('payouts_developer_due').on('payouts').columns(['developer_id', 'status', 'due_at']).execute();
    },
  },
  '0010_pending_payouts_by_wallet': {
    async up(db: Kysely<unknown>) {
      // A credit to a wallet checks its balance plus its pending payouts against the ceiling
      // (accounts.repository.ts), so a reversal always fits: one indexed look-up per credit.
      await db.schema.createIndex('payouts_wallet_status').on('payouts').columns(['wallet_id', 'status']).execute();
    },
  },
  '0011_analysis_cache': {
    async up(db: Kysely<unknown>) {
      // A model-backed analyser's answers, so a replay or a seeded run gets the answer it got before.
      // Not developer data: reset keeps it, like the clock.
      await db.schema
        .createTable('analysis_cache')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0014_lean_webhook_storage': {
    async up(db: Kysely<unknown>) {
      // Each event's payload is stored once, on the event: a delivery log reads it from there, and
      // the built-in receiver keeps no copy of a body that is exactly its event's payload (NULL).
      await db.schema.alterTable('webhook_logs').dropColumn('payload').execute();
      await sql`CREATE TABLE receiver_events_0014 (
        seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
        webhook_id text, event_type text, headers text NOT NULL, body text, signature_valid integer NOT NULL,
        response_status integer NOT NULL, created_at text NOT NULL)`.execute(db);
      await sql`INSERT INTO receiver_events_0014 (seq, id, developer_id, webhook_id, event_type, headers, body, signature_valid, response_status, created_at)
        SELECT r.seq, r.id, r.developer_id, r.webhook_id, r.event_type, r.headers,
          CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.id = r.webhook_id AND e.developer_id = r.developer_id AND e.payload = r.body) THEN NULL ELSE r.body END,
          r.signature_valid, r.response_status, r.created_at
        FROM receiver_events r`.execute(db);
      await sql`DROP TABLE receiver_events`.execute(db);
      await sql`ALTER TABLE receiver_events_0014 RENAME TO receiver_events`.execute(db);
      // Index entries end in the rowid (seq), so an index on developer_id alone lists in seq order.
      await db.schema.createIndex('receiver_events_developer').on('receiver_events').column('developer_id').execute();

      // Lists read a developer's logs in the order they were recorded (seq, the rowid that ends
      // every index entry), filtered by nothing, by event type or by status, each through an index
      // in that order (no sort, no scan). Most logs end DELIVERED: the status index keeps only the
      // others, and a DELIVERED list reads the developer's index, where nearly every row matches.
      await db.schema.createIndex('webhook_logs_developer').on('webhook_logs').column('developer_id').execute();
      await db.schema.createIndex('webhook_logs_developer_type').on('webhook_logs').columns(['developer_id', 'event_type']).execute();
      await db.schema
        .createIndex('webhook_logs_developer_status')
        .on('webhook_logs')
        .columns(['developer_id', 'status'])
        .where(sql.ref('status'), '!=', 'DELIVERED')
        .execute();

      // `total` without counting: counters kept with the rows, as transaction_counts are.
      await db.schema
        .createTable('webhook_log_counts')
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_log_counts_pk', ['developer_id', 'status', 'event_type'])
        .execute();
      await sql`INSERT INTO webhook_log_counts (developer_id, status, event_type, n)
        SELECT developer_id, status, event_type, count(*) FROM webhook_logs GROUP BY developer_id, status, event_type`.execute(db);
      await db.schema
        .createTable('receiver_event_counts')
        .addColumn('developer_id', 'text', (c) => c.primaryKey().references('developers.id'))
        .addColumn('n', 'integer', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO receiver_event_counts (developer_id, n) SELECT developer_id, count(*) FROM receiver_events GROUP BY developer_id`.execute(db);
    },
  },
  '0015_lean_ledger_rows': {
    async up(db: Kysely<unknown>) {
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
        await db.schema.createIndex(name).on(table).columns([...columns]).execute();
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
        WHERE http_status_code BETWEEN 200 AND 299 AND response_body = '{"received":true,"signature_valid":true}'`.execute(db);
    },
  },
  '0016a_ledger_keys_by_seq': {
    async up(db: Kysely<unknown>) {
      // Postings and entries are internal (nothing in the API names them): they are keyed by their
      // seq alone, with no 36-character id and no unique index on it, and everything that pointed at
      // them by id points at the seq (entries.posting_seq, transactions.posting_seq and entry_seq,
      // suspense_items.posting_seq). Every row and seq is kept.
      await rebuildTables(db, [
        {
          table: 'postings',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, developer_id text NOT NULL REFERENCES developers(id), kind text NOT NULL, created_at text NOT NULL`,
          copy: sql`SELECT seq, developer_id, kind, created_at FROM postings`,
        },
        {
          table: 'entries',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, posting_seq integer NOT NULL REFERENCES postings(seq),
            account_id text NOT NULL REFERENCES accounts(id), amount integer NOT NULL`,
          copy: sql`SELECT e.seq, p.seq, e.account_id, e.amount FROM entries e JOIN postings p ON p.id = e.posting_id`,
          indexes: [sql`CREATE INDEX entries_posting ON entries (posting_seq)`, sql`CREATE INDEX entries_account ON entries (account_id)`],
        },
        {
          table: 'transactions',
          create: transactionsTable(sql`NOT NULL`),
          copy: sql`SELECT t.seq, t.id, t.developer_id, t.wallet_id, p.seq, e.seq, t.type, t.amount, t.balance_before, t.balance_after,
            t.currency, t.status, t.provider_reference, t.sender_name, t.sender_account, t.raw_narration, t.service_intelligence,
            t.destination_account_number, t.destination_bank_code, t.destination_account_name, t.fee, t.agent_id, t.created_at, t.updated_at
            FROM transactions t JOIN postings p ON p.id = t.posting_id JOIN entries e ON e.id = t.entry_id`,
          indexes: transactionsIndexes(),
        },
        {
          table: 'suspense_items',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
            wallet_id text REFERENCES wallets(id), account_number text NOT NULL, amount integer NOT NULL, sender_name text NOT NULL,
            sender_account text NOT NULL, sender_bank_code text NOT NULL, raw_narration text NOT NULL, provider_reference text NOT NULL,
            reason text NOT NULL, status text NOT NULL, raw_payload text NOT NULL, service_intelligence text,
            posting_seq integer NOT NULL REFERENCES postings(seq), resolved_at text, resolution_note text, created_at text NOT NULL,
            resolution_action text, resolution_transaction_id text`,
          copy: sql`SELECT s.seq, s.id, s.developer_id, s.wallet_id, s.account_number, s.amount, s.sender_name, s.sender_account,
            s.sender_bank_code, s.raw_narration, s.provider_reference, s.reason, s.status, s.raw_payload, s.service_intelligence, p.seq,
            s.resolved_at, s.resolution_note, s.created_at, s.resolution_action, s.resolution_transaction_id
            FROM suspense_items s JOIN postings p ON p.id = s.posting_id`,
          indexes: [sql`CREATE INDEX suspense_items_developer ON suspense_items (developer_id, status, reason)`],
        },
      ]);
    },
  },
  '0016b_webhook_keys_by_seq': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0016c_transactions_updated_only_when_changed': {
    async up(db: Kysely<unknown>) {
      // A transaction's updated_at is NULL until it changes (a payout's debit settling or failing):
      // it reads as its created_at (serialize.ts), which nearly every row repeated.
      await rebuildTables(db, [
        {
          table: 'transactions',
          create: transactionsTable(sql``),
          copy: sql`SELECT seq, id, developer_id, wallet_id, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
            provider_reference, sender_name, sender_account, raw_narration, service_intelligence, destination_account_number,
            destination_bank_code, destination_account_name, fee, agent_id, created_at, nullif(updated_at, created_at) FROM transactions`,
          indexes: transactionsIndexes(),
        },
      ]);
    },
  },
  '0019a_ledger_accounts_by_seq': {
    async up(db: Kysely<unknown>) {
      // Accounts get an integer key (seq, in the order they were made), and the hot ledger rows
      // point at it instead of repeating a 36-character id: an entry at its account (account_seq), a
      // wallet transaction at its wallet's account (account_seq, in the row and its three indexes),
      // which also gives its wallet id and developer (both read through the account, so the
      // transaction's own copy of the developer's id goes). Every row and seq is kept.
      await rebuildTables(db, [
        {
          table: 'accounts',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
            kind text NOT NULL, balance integer NOT NULL DEFAULT 0, floor_zero integer NOT NULL, created_at text NOT NULL,
            CONSTRAINT accounts_floor CHECK (floor_zero = 0 OR balance >= 0)`,
          copy: sql`SELECT NULL, id, developer_id, kind, balance, floor_zero, created_at FROM accounts ORDER BY rowid`,
          indexes: [sql`CREATE UNIQUE INDEX accounts_system_kind ON accounts (developer_id, kind) WHERE kind != 'WALLET'`],
        },
        {
          table: 'entries',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, posting_seq integer NOT NULL REFERENCES postings(seq),
            account_seq integer NOT NULL REFERENCES accounts(seq), amount integer NOT NULL`,
          copy: sql`SELECT e.seq, e.posting_seq, a.seq, e.amount FROM entries e JOIN accounts_0016 a ON a.id = e.account_id`,
          indexes: [sql`CREATE INDEX entries_posting ON entries (posting_seq)`, sql`CREATE INDEX entries_account ON entries (account_seq)`],
        },
        {
          table: 'transactions',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, account_seq integer NOT NULL REFERENCES accounts(seq),
            posting_seq integer NOT NULL REFERENCES postings(seq), entry_seq integer NOT NULL REFERENCES entries(seq), type text NOT NULL,
            amount integer NOT NULL, balance_before integer NOT NULL, balance_after integer NOT NULL, currency text NOT NULL, status text NOT NULL,
            provider_reference text NOT NULL, sender_name text NOT NULL, sender_account text NOT NULL, raw_narration text NOT NULL,
            service_intelligence text, destination_account_number text, destination_bank_code text, destination_account_name text, fee integer,
            agent_id text, created_at text NOT NULL, updated_at text`,
          copy: sql`SELECT t.seq, t.id, a.seq, t.posting_seq, t.entry_seq, t.type, t.amount, t.balance_before, t.balance_after, t.currency, t.status,
            t.provider_reference, t.sender_name, t.sender_account, t.raw_narration, t.service_intelligence, t.destination_account_number,
            t.destination_bank_code, t.destination_account_name, t.fee, t.agent_id, t.created_at, t.updated_at
            FROM transactions t JOIN accounts_0016 a ON a.id = t.wallet_id AND a.developer_id = t.developer_id`,
          indexes: accountTransactionsIndexes(),
        },
      ]);
    },
  },
  '0019b_ledger_times_as_integers': {
    async up(db: Kysely<unknown>) {
      // A transaction's and a posting's times are stored as integer milliseconds since the epoch
      // (6 bytes, not 24 characters, in the row and in both time indexes) and shown as the same
      // ISO text (transactions.repository.ts): ISO times of one width sort as their instants do, so
      // the lists' order is the same. A stored time that would not come back as the same text stops
      // the migration, the database as it was (rebuildTables counts the rows carried over).
      await rebuildTables(db, [
        {
          table: 'postings',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, developer_id text NOT NULL REFERENCES developers(id), kind text NOT NULL,
            created_at integer NOT NULL`,
          copy: sql`SELECT seq, developer_id, kind, ${epochMs(sql.ref('created_at'))} FROM postings WHERE ${sameTime(sql.ref('created_at'))}`,
        },
        {
          table: 'transactions',
          create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, account_seq integer NOT NULL REFERENCES accounts(seq),
            posting_seq integer NOT NULL REFERENCES postings(seq), entry_seq integer NOT NULL REFERENCES entries(seq), type text NOT NULL,
            amount integer NOT NULL, balance_before integer NOT NULL, balance_after integer NOT NULL, currency text NOT NULL, status text NOT NULL,
            provider_reference text NOT NULL, sender_name text NOT NULL, sender_account text NOT NULL, raw_narration text NOT NULL,
            service_intelligence text, destination_account_number text, destination_bank_code text, destination_account_name text, fee integer,
            agent_id text, created_at integer NOT NULL, updated_at integer`,
          copy: sql`SELECT seq, id, account_seq, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
            provider_reference, sender_name, sender_account, raw_narration, service_intelligence, destination_account_number,
            destination_bank_code, destination_account_name, fee, agent_id, ${epochMs(sql.ref('created_at'))}, ${epochMs(sql.ref('updated_at'))}
            FROM transactions WHERE ${sameTime(sql.ref('created_at'))} AND (updated_at IS NULL OR ${sameTime(sql.ref('updated_at'))})`,
          indexes: accountTransactionsIndexes(),
        },
      ]);
    },
  },
  '0020_webhook_rows_by_number': {
    async up(db: Kysely<unknown>) {
      // Events, delivery logs and attempts (three rows for each event, most of the database after
      // the transactions) carried their developer's 36-character id, their event type's name and
      // 24-character ISO times, on each row and at the head of each log index. A developer gets a
      // number (developers.seq, given in the order they were created; a new one takes the next);
      // these rows name their developer by it, their event type by its code (events/stored.ts:
      // contract §7's types in a fixed order that only ever grows) and their times as epoch
      // milliseconds, all read back as the same id, name and ISO text. Every row and seq is kept.
      await sql`ALTER TABLE developers ADD COLUMN seq integer`.execute(db);
      await sql`UPDATE developers SET seq = (SELECT count(*) FROM developers d
        WHERE d.created_at < developers.created_at OR (d.created_at = developers.created_at AND d.rowid <= developers.rowid))`.execute(db);
      await sql`CREATE UNIQUE INDEX developers_seq ON developers (seq)`.execute(db);
      const code = (column: string) =>
        sql`CASE ${sql.ref(column)} ${sql.join(EVENT_TYPE_CODES.map((type, i) => sql`WHEN ${sql.lit(type)} THEN ${sql.lit(i)}`), sql` `)} END`;
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
    },
  },
  '0020b_webhook_ids_as_bytes': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0021_analysis_cache_per_developer': {
    async up(db: Kysely<unknown>) {
      // Each developer's answers apart: a shared one let a developer learn another's narrations from
      // what came back at once, and choose the answer another's payments got. The rows kept so far
      // belong to nobody in particular; being a cache, they go, and the model is asked again.
      await db.schema.dropTable('analysis_cache').execute();
      await db.schema
        .createTable('analysis_cache')
        .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('analysis_cache_key', ['developer_id', 'key'])
        .execute();
    },
  },
  '0022_report_periods': {
    async up(db: Kysely<unknown>) {
      // A report's period is read through these (engine/report): a developer's suspense items and
      // events by time, and each event's deliveries, so its cost follows the period's rows and not
      // the ledger's size. Transactions already have a time index per wallet.
      await db.schema.createIndex('suspense_items_developer_time').on('suspense_items').columns(['developer_id', 'created_at']).execute();
      await db.schema.createIndex('events_developer_time').on('events').columns(['developer_seq', 'created_at_ms']).execute();
      await db.schema.createIndex('webhook_logs_event').on('webhook_logs').column('event_seq').execute();
    },
  },
  '0023_transactions_by_time': {
    async up(db: Kysely<unknown>) {
      // Every wallet's transactions of a developer in one list (GET /v1/transactions), oldest or
      // newest first, and bounded by time: read in order from this index instead of gathering each
      // wallet's and sorting them all for every page.
      await sql`CREATE INDEX transactions_time ON transactions (created_at)`.execute(db);
    },
  },
  '0024_suspense_notes': {
    async up(db: Kysely<unknown>) {
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
    },
  },
};

/** Events, delivery logs and attempts as 0020 and 0020b rebuild them, with the type of their `id` (text, then blob). */
const webhookTableEvents = (id: RawBuilder<unknown>) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id ${id} NOT NULL UNIQUE,
  developer_seq integer NOT NULL REFERENCES developers(seq), type_code integer NOT NULL, payload text NOT NULL, transaction_seq integer,
  created_at_ms integer NOT NULL`;
const webhookTableLogs = (id: RawBuilder<unknown>) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id ${id} NOT NULL UNIQUE,
  developer_seq integer NOT NULL REFERENCES developers(seq), event_seq integer NOT NULL REFERENCES events(seq), event_type_code integer NOT NULL,
  status text NOT NULL, http_status_code integer, response_body text, attempt_count integer NOT NULL DEFAULT 0, next_retry_at_ms integer,
  delivered_at_ms integer`;
const webhookTableAttempts = (id: RawBuilder<unknown>) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id ${id} NOT NULL,
  log_seq integer NOT NULL REFERENCES webhook_logs(seq), attempt_number integer NOT NULL, manual integer NOT NULL,
  url_seq integer NOT NULL REFERENCES webhook_urls(seq), http_status_code integer, response_body text, error text, duration_ms integer NOT NULL,
  created_at_ms integer NOT NULL`;

/** The delivery logs' indexes as 0020 and 0020b make them. */
const webhookLogsIndexes = () => [
  sql`CREATE INDEX webhook_logs_due ON webhook_logs (developer_seq, next_retry_at_ms, seq) WHERE next_retry_at_ms IS NOT NULL`,
  sql`CREATE INDEX webhook_logs_developer ON webhook_logs (developer_seq)`,
  sql`CREATE INDEX webhook_logs_developer_type ON webhook_logs (developer_seq, event_type_code)`,
  sql`CREATE INDEX webhook_logs_developer_status ON webhook_logs (developer_seq, status) WHERE status != 'DELIVERED'`,
];

/** The transactions table as 0016a and 0016c rebuild it (keyed to postings and entries by seq), with `updated_at`'s constraint. */
const transactionsTable = (updatedAt: RawBuilder<unknown>) => sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE,
  developer_id text NOT NULL REFERENCES developers(id), wallet_id text NOT NULL REFERENCES wallets(id),
  posting_seq integer NOT NULL REFERENCES postings(seq), entry_seq integer NOT NULL REFERENCES entries(seq), type text NOT NULL,
  amount integer NOT NULL, balance_before integer NOT NULL, balance_after integer NOT NULL, currency text NOT NULL, status text NOT NULL,
  provider_reference text NOT NULL, sender_name text NOT NULL, sender_account text NOT NULL, raw_narration text NOT NULL,
  service_intelligence text, destination_account_number text, destination_bank_code text, destination_account_name text, fee integer,
  agent_id text, created_at text NOT NULL, updated_at text ${updatedAt}`;

/** Its indexes (as 0015 left them). */
const transactionsIndexes = () => [
  sql`CREATE INDEX transactions_wallet ON transactions (wallet_id)`,
  sql`CREATE INDEX transactions_wallet_time ON transactions (wallet_id, created_at)`,
  sql`CREATE INDEX transactions_wallet_type_time ON transactions (wallet_id, type, created_at)`,
];

/** An ISO time as `Date.prototype.toISOString` writes it ('2026-11-23T19:59:16.684Z'), as integer milliseconds since the epoch. */
const epochMs = (iso: RawBuilder<unknown>) => sql`unixepoch(${iso}) * 1000 + CAST(substr(${iso}, 21, 3) AS INTEGER)`;

/** True when the ISO time comes back as the same text from its milliseconds, as the API shows it. */
const sameTime = (iso: RawBuilder<unknown>) => sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${epochMs(iso)}) / 1000.0, 'unixepoch') = ${iso}`;

/** Its indexes as 0019a and 0019b make them: a wallet's transactions by its account's seq. */
const accountTransactionsIndexes = () => [
  sql`CREATE INDEX transactions_wallet ON transactions (account_seq)`,
  sql`CREATE INDEX transactions_wallet_time ON transactions (account_seq, created_at)`,
  sql`CREATE INDEX transactions_wallet_type_time ON transactions (account_seq, type, created_at)`,
];

/** A table's new definition, the SELECT (from the old tables, all still there) that fills it, and its indexes. */
interface Rebuild {
  table: string;
  create: RawBuilder<unknown>;
  copy: RawBuilder<unknown>;
  indexes?: RawBuilder<unknown>[];
}

/**
 * Rebuilds tables in one transaction, as SQLite's ALTER TABLE procedure does: each new table is
 * filled from the old ones (which all stay until every copy is made, so one copy can join another's
 * old table), then the old ones go and the new ones take their names, indexes and AUTOINCREMENT
 * counters (so no seq is ever handed out twice). Foreign keys are off meanwhile (a dropped table's
 * rows would count as removed) and checked on the rebuilt tables before COMMIT; a row that loses
 * its parent or any failure leaves the database as it was.
 */
async function rebuildTables(db: Kysely<unknown>, rebuilds: Rebuild[]): Promise<void> {
  const next = (table: string) => sql.table(`${table}_0016`);
  const { rows: pragma } = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    for (const { table, create, copy } of rebuilds) {
      await sql`CREATE TABLE ${next(table)} (${create})`.execute(db);
      await sql`INSERT INTO ${next(table)} ${copy}`.execute(db);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
      const { rows: copied } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${next(table)}`.execute(db);
      if (rows[0]!.n !== copied[0]!.n) throw new Error(`${table}: ${copied[0]!.n} of ${rows[0]!.n} rows could be carried over`);
      await sql`DELETE FROM sqlite_sequence WHERE name = ${`${table}_0016`}`.execute(db);
      await sql`INSERT INTO sqlite_sequence (name, seq) SELECT ${`${table}_0016`},
        max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ${table}), 0), coalesce((SELECT max(seq) FROM ${next(table)}), 0))`.execute(db);
    }
    for (const { table } of [...rebuilds].reverse()) await sql`DROP TABLE ${sql.table(table)}`.execute(db);
    for (const { table, indexes } of rebuilds) {
      await sql`ALTER TABLE ${next(table)} RENAME TO ${sql.table(table)}`.execute(db);
      for (const index of indexes ?? []) await index.execute(db);
    }
    for (const { table } of rebuilds) {
      const { rows } = await sql<{ table: string; parent: string }>`SELECT "table", parent FROM pragma_foreign_key_check(${table})`.execute(db);
      if (rows.length > 0) throw new Error(`${table}: a row refers to a missing ${rows[0]!.parent} row`);
    }
    await sql`COMMIT`.execute(db);
  } catch (error) {
    await sql`ROLLBACK`.execute(db);
    throw error;
  } finally {
    if (pragma[0]?.foreign_keys) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/**
 * Migration names compared code unit by code unit, as Kysely sorts the migrations themselves: its
 * default (`localeCompare`) loads ICU's collation on its first call, 5 to 15 ms of every start.
 */
export const migrationOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
