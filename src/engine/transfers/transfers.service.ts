import type { Trx } from '../db/database.js';
import { type EngineEnv, VIRTUAL_BANK } from '../env.js';
import { LedgerError, invalidField } from '../errors.js';
import { emitLedgerEvent } from '../events/events.service.js';
import { nameEnquiry } from '../banks/name-enquiry.js';
import { post } from '../ledger/ledger.service.js';
import { startPayout } from '../payouts/payouts.service.js';
import { nipSessionId } from '../references.js';
import { findWalletByAccountNumber, type WalletRow } from '../wallets/wallets.repository.js';
import { getWallet } from '../wallets/wallets.service.js';

export interface TransferInput {
  destination_account_number: string;
  destination_bank_code?: string | undefined;
  destination_account_name?: string | undefined;
  amount: number;
  narration?: string | undefined;
}

export interface TransferResult {
  status: 'SUCCESS' | 'PENDING' | 'FAILED';
  transaction_id: string;
  provider_reference: string;
  new_balance: number;
  currency: 'NGN';
  fee: number;
}

export const DEFAULT_NARRATION = 'Wallet Transfer';

/** Checks that a wallet may send money at all (contract §5). */
export function assertCanSend(wallet: WalletRow): void {
  if (wallet.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'the source wallet is closed');
  if (!wallet.allow_transfers_out) {
    throw new LedgerError('TRANSFERS_DISABLED', 'transfers out of this wallet are disabled (allow_transfers_out is false)');
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
  const source = await getWallet(trx, developerId, walletId);
  assertCanSend(source);
  const bankCode = input.destination_bank_code;
  if (bankCode === undefined || bankCode === VIRTUAL_BANK.code) {
    const destination = await findWalletByAccountNumber(trx, input.destination_account_number);
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
  return startPayout(trx, env, source, destination, { amount: input.amount, narration: input.narration ?? DEFAULT_NARRATION });
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
  const reference = nipSessionId(env);
  const narration = input.narration ?? DEFAULT_NARRATION;
  const common = {
    status: 'SETTLED' as const,
    provider_reference: reference,
    sender_name: source.account_name,
    sender_account: source.account_number,
    raw_narration: narration,
    destination_account_number: destination.account_number,
    destination_bank_code: destination.bank_code,
    destination_account_name: destination.account_name,
    fee: 0,
  };
  const { transactions } = await post(trx, env, {
    developerId: source.developer_id,
    kind: 'INTERNAL_TRANSFER',
    legs: [
      { accountId: source.id, amount: -input.amount, transaction: common },
      { accountId: destination.id, amount: input.amount, transaction: common },
    ],
  });
  const [debit, credit] = transactions as [NonNullable<(typeof transactions)[0]>, NonNullable<(typeof transactions)[0]>];
  await emitLedgerEvent(trx, env, debit);
  await emitLedgerEvent(trx, env, credit);
  return {
    status: 'SUCCESS',
    transaction_id: debit.id,
    provider_reference: reference,
    new_balance: debit.balance_after,
    currency: 'NGN',
    fee: 0,
  };
}
