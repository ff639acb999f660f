import type { Insertable } from 'kysely';
import { prepare, prepareInsert } from '../db/prepared.js';
import type { TransactionTable } from './ledger.table.js';

// The statements every movement of money runs, prepared once (see db/prepared.ts).

export const insertPosting = prepareInsert('postings', ['id', 'developer_id', 'kind', 'created_at']);

export const insertEntry = prepareInsert('entries', ['id', 'posting_id', 'account_id', 'amount', 'created_at']);

export type NewTransaction = Required<Omit<Insertable<TransactionTable>, 'seq'>>;

export const insertTransaction = prepare((db, p: NewTransaction) =>
  db
    .insertInto('transactions')
    .values({
      id: p.id,
      developer_id: p.developer_id,
      wallet_id: p.wallet_id,
      posting_id: p.posting_id,
      entry_id: p.entry_id,
      type: p.type,
      amount: p.amount,
      balance_before: p.balance_before,
      balance_after: p.balance_after,
      currency: p.currency,
      status: p.status,
      provider_reference: p.provider_reference,
      sender_name: p.sender_name,
      sender_account: p.sender_account,
      raw_narration: p.raw_narration,
      service_intelligence: p.service_intelligence,
      destination_account_number: p.destination_account_number,
      destination_bank_code: p.destination_bank_code,
      destination_account_name: p.destination_account_name,
      fee: p.fee,
      agent_id: p.agent_id,
      created_at: p.created_at,
      updated_at: p.updated_at,
    })
    .returningAll(),
);

/** Keeps the per-wallet, per-type count that list totals read. */
export const countTransaction = prepare((db, p: { wallet_id: string; type: TransactionTable['type'] }) =>
  db
    .insertInto('transaction_counts')
    .values({ wallet_id: p.wallet_id, type: p.type, n: 1 })
    .onConflict((oc) => oc.columns(['wallet_id', 'type']).doUpdateSet((eb) => ({ n: eb('transaction_counts.n', '+', 1) }))),
);
