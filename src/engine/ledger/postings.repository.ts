import { prepareInsertSeqs, prepareRows } from '../db/prepared.js';
import type { TransactionTable } from './ledger.table.js';

// The statements every movement of money runs, prepared once (see db/prepared.ts).

export const insertPosting = prepareInsertSeqs('postings', ['developer_id', 'kind', 'created_at']);

/** A posting's entries, all in one statement. */
export const insertEntries = prepareInsertSeqs('entries', ['posting_seq', 'account_seq', 'amount']);

/** A posting's wallet transactions, all in one statement. */
export const insertTransactions = prepareInsertSeqs('transactions', [
  'id',
  'account_seq',
  'posting_seq',
  'entry_seq',
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
]);

/** Keeps the per-wallet, per-type counts that list totals read: one more for each row given. */
export const countTransactions = prepareRows((db, rows: { wallet_id: string; type: TransactionTable['type'] }[]) =>
  db
    .insertInto('transaction_counts')
    .values(rows.map((row) => ({ wallet_id: row.wallet_id, type: row.type, n: 1 })))
    .onConflict((oc) =>
      oc.columns(['wallet_id', 'type']).doUpdateSet((eb) => ({ n: eb('transaction_counts.n', '+', 1) })),
    ),
);
