import type { Trx } from '../db/database.js';
import { type EngineEnv, VIRTUAL_BANK } from '../env.js';
import { LedgerError, invalidField, notFound } from '../errors.js';
import { nameEnquiry } from '../banks/name-enquiry.js';
import { startPayout } from '../payouts/payouts.service.js';
import { runAgents } from '../agents/evaluate.js';
import { moveBetweenWallets } from './internal.js';
import { findWallet, findWalletAndDestination, type WalletRow } from '../wallets/wallets.repository.js';
import type { TransferResult } from './result.js';

export interface TransferInput {
  destination_account_number: string;
  destination_bank_code?: string | undefined;
  destination_account_name?: string | undefined;
  amount: number;
  narration?: string | undefined;
}

export type { TransferResult } from './result.js';

export const DEFAULT_NARRATION = 'Wallet Transfer';

/** Checks that a wallet may send money at all (decisions: Resources and their defaults). */
export function assertCanSend(wallet: WalletRow): void {
  if (wallet.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'the source wallet is closed');
  if (!wallet.allow_transfers_out) {
    throw new LedgerError(
      'TRANSFERS_DISABLED',
      'transfers out of this wallet are disabled (allow_transfers_out is false)',
    );
  }
}

/**
 * Sends money from a wallet: internal when the destination is one of the developer's own wallets
 * (instant, no fee), external otherwise.
 * @example await transfer(trx, env, developerId, walletId, { destination_account_number: '0123456789', amount: 5000 });
 */
export async function transfer(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  walletId: string,
  input: TransferInput,
): Promise<TransferResult> {
  const bankCode = input.destination_bank_code;
  const ownBank = bankCode === undefined || bankCode === VIRTUAL_BANK.code;
  // To one of the sandbox's wallets, the source and the destination are read in one statement.
  const read = ownBank
    ? await findWalletAndDestination(trx, developerId, walletId, input.destination_account_number)
    : { wallet: await findWallet(trx, developerId, walletId), destination: undefined };
  if (!read.wallet) throw notFound('wallet');
  const source = read.wallet;
  assertCanSend(source);
  if (ownBank) {
    const { destination } = read;
    if (destination && destination.developer_id === developerId) {
      return internalTransfer(trx, env, source, destination, input);
    }
    if (bankCode === undefined) {
      throw invalidField(
        'destination_bank_code',
        'required: the destination account number is not one of your wallets, so this is an external transfer',
      );
    }
  }
  const destination = await nameEnquiry(trx, bankCode, input.destination_account_number, 'destination_bank_code');
  return startPayout(trx, env, source, destination, {
    amount: input.amount,
    narration: input.narration ?? DEFAULT_NARRATION,
  });
}

async function internalTransfer(
  trx: Trx,
  env: EngineEnv,
  source: WalletRow,
  destination: WalletRow,
  input: TransferInput,
): Promise<TransferResult> {
  if (destination.id === source.id) {
    throw invalidField('destination_account_number', 'is the source wallet itself');
  }
  if (destination.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'the destination wallet is closed');
  const [debit, credit] = await moveBetweenWallets(trx, env, source, destination, input.amount, {
    narration: input.narration ?? DEFAULT_NARRATION,
  });
  // Agents may move money on from either wallet; only then is the debit's balance out of date.
  const agentsFired = await runAgents(trx, env, [debit, credit]);
  const newBalance = agentsFired
    ? (await findWallet(trx, source.developer_id, source.id))!.balance
    : debit.balance_after;
  return {
    status: 'SUCCESS',
    transaction_id: debit.id,
    provider_reference: debit.provider_reference,
    new_balance: newBalance,
    currency: 'NGN',
    fee: 0,
  };
}
