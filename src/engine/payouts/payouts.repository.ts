import type { Db } from '../db/database.js';
import { findTransaction } from '../ledger/transactions.repository.js';
import type { PayoutRow } from './payouts.table.js';

/**
 * The payout a transaction belongs to: its DEBIT, its fee's DEBIT or the reversal CREDIT of a failed
 * one. All three are on the payout's wallet with its provider reference, which is how the payout is
 * found (through the wallet's index); undefined for any other transaction, or another developer's.
 * @example const payout = await findPayoutOf(db, developerId, reversalId); // payout.reversal_transaction_id === reversalId
 */
export async function findPayoutOf(db: Db, developerId: string, transactionId: string): Promise<PayoutRow | undefined> {
  const transaction = await findTransaction(db, developerId, transactionId);
  if (!transaction || transaction.destination_bank_code === null) return undefined;
  const payouts = await db
    .selectFrom('payouts')
    .selectAll()
    .where('wallet_id', '=', transaction.wallet_id)
    .where('provider_reference', '=', transaction.provider_reference)
    .execute();
  return payouts.find((p) =>
    [p.transaction_id, p.fee_transaction_id, p.reversal_transaction_id].includes(transactionId),
  );
}
