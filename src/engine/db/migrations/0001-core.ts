import { type Kysely, sql } from 'kysely';
import { byDialect } from './by-dialect.js';
import { createBaseline } from './postgres-baseline.js';

/** On SQLite, the first schema, which the migrations after it change; on PostgreSQL, today's whole schema at once. */
export const core = byDialect({
  sqlite: async (db: Kysely<unknown>) => {
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
  postgres: createBaseline,
});
