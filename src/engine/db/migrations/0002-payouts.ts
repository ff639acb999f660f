import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const payouts = inBaseline(async (db: Kysely<unknown>) => {
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
});
