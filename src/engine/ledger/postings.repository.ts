import { prepare, prepareInsert } from '../db/prepared.js';
import type { TransactionTable } from './ledger.table.js';

// The statements every movement of money runs, prepared once (see db/prepared.ts).

export const insertPosting = prepareInsert('postings', ['id', 'developer_id', 'kind', 'created_at']);

export const insertEntry = prepareInsert('entries', ['id', 'posting_id', 'account_id', 'amount', 'created_at']);

export const insertTransaction = prepareInsert(
  'transactions',
  [
    'id',
    'developer_id',
    'wallet_id',
    'posting_id',
    'entry_id',
    'type',
    'amount',
    'balance_before',
    'balance_after',
    'currency',
    'status',
    'provider_reference',
    'sender_name',
    'sender_account',
    'raw_narration',
    'service_intelligence',
    'destination_account_number',
    'destination_bank_code',
    'destination_account_name',
    'fee',
    'agent_id',
    'created_at',
    'updated_at',
  ],
  { returning: true },
);

/** Keeps the per-wallet, per-type count that list totals read. */
export const countTransaction = prepare((db, p: { wallet_id: string; type: TransactionTable['type'] }) =>
  db
    .insertInto('transaction_counts')
    .values({ wallet_id: p.wallet_id, type: p.type, n: 1 })
    .onConflict((oc) => oc.columns(['wallet_id', 'type']).doUpdateSet((eb) => ({ n: eb('transaction_counts.n', '+', 1) }))),
);
