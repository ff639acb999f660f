import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { emitLedgerEvents } from '../events/events.service.js';
import { post, type TransactionRow } from '../ledger/ledger.service.js';
import { nipSessionId } from '../references.js';
import type { WalletRow } from '../wallets/wallets.repository.js';

/**
 * Moves money between two wallets of one developer: a SETTLED DEBIT and CREDIT sharing a NIP-style
 * reference, no fee, with ledger.debit and ledger.credit. Callers have checked who may send what.
 * @example const [debit, credit] = await moveBetweenWallets(trx, env, from, to, 5000, { narration: 'Savings' })
 */
export async function moveBetweenWallets(
  trx: Trx,
  env: EngineEnv,
  source: WalletRow,
  destination: WalletRow,
  amount: number,
  options: { narration: string; agentId?: string },
): Promise<[TransactionRow, TransactionRow]> {
  const common = {
    status: 'SETTLED' as const,
    provider_reference: nipSessionId(env),
    sender_name: source.account_name,
    sender_account: source.account_number,
    raw_narration: options.narration,
    destination_account_number: destination.account_number,
    destination_bank_code: destination.bank_code,
    destination_account_name: destination.account_name,
    fee: 0,
    agent_id: options.agentId ?? null,
  };
  const { transactions } = await post(trx, env, {
    developerId: source.developer_id,
    kind: options.agentId ? 'AGENT_SWEEP' : 'INTERNAL_TRANSFER',
    legs: [
      { accountId: source.id, amount: -amount, transaction: common },
      { accountId: destination.id, amount, transaction: common },
    ],
  });
  const debit = transactions[0]!;
  const credit = transactions[1]!;
  await emitLedgerEvents(trx, env, [debit, credit]);
  return [debit, credit];
}
