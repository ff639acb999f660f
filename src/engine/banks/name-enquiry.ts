import type { Trx } from '../db/database.js';
import { VIRTUAL_BANK } from '../env.js';
import { LedgerError } from '../errors.js';
import { findWalletByAccountNumber, type WalletRow } from '../wallets/wallets.repository.js';
import { isValidNubanForCode } from '../wallets/nuban.js';
import { bankName, findBank } from './banks.js';
import { magicAccount, type PayoutPlan } from './magic.js';
import { nigerianName } from './names.js';

export interface ResolvedAccount {
  account_number: string;
  account_name: string;
  bank_code: string;
  /** What the provider will do with a payout to this account. */
  plan: PayoutPlan;
  /** Set when the account is a virtual account of this sandbox (any developer's). */
  wallet?: WalletRow;
}

export function requireBank(code: string, field = 'bank_code') {
  const bank = findBank(code);
  if (!bank) {
    throw new LedgerError('INVALID_BANK_CODE', `bank code ${code} is not in the list of banks (GET /v1/banks)`, [
      { field, message: 'not a listed bank code' },
    ]);
  }
  return bank;
}

function notFound(accountNumber: string, bankCode: string): LedgerError {
  return new LedgerError(
    'ACCOUNT_NOT_FOUND',
    `account ${accountNumber} at ${bankName(bankCode)} could not be resolved`,
  );
}

/**
 * Name enquiry at the simulated provider: magic numbers first, then the sandbox's own virtual
 * accounts, then any number with a valid check digit for the bank.
 * @example await nameEnquiry(trx, '058', '0000014579')
 */
export async function nameEnquiry(
  trx: Trx,
  bankCode: string,
  accountNumber: string,
  bankField = 'bank_code',
): Promise<ResolvedAccount> {
  requireBank(bankCode, bankField);
  const magic = magicAccount(accountNumber);
  if (magic) {
    if (!magic.plan || !magic.account_name) throw notFound(accountNumber, bankCode);
    return { account_number: accountNumber, account_name: magic.account_name, bank_code: bankCode, plan: magic.plan };
  }
  if (bankCode === VIRTUAL_BANK.code) {
    const wallet = await findWalletByAccountNumber(trx, accountNumber);
    if (wallet)
      return {
        account_number: accountNumber,
        account_name: wallet.account_name,
        bank_code: bankCode,
        plan: 'SETTLE',
        wallet,
      };
  }
  if (!isValidNubanForCode(accountNumber, bankCode)) throw notFound(accountNumber, bankCode);
  return {
    account_number: accountNumber,
    account_name: nigerianName(bankCode, accountNumber),
    bank_code: bankCode,
    plan: 'SETTLE',
  };
}
