import type { Wallet } from '../api/schemas/wallets.js';
import { ApiError } from '../client/errors.js';
import type { Io } from './io.js';

/**
 * A 10-digit argument is an account number; anything else is taken as a wallet id and looked up.
 * One that names no wallet says which argument it was (`transfer` takes two wallet ids, and the
 * API's "wallet not found" does not say which), and where the ids are.
 */
export async function accountNumberOf(io: Io, walletOrAccount: string, label: string): Promise<string> {
  if (/^\d{10}$/.test(walletOrAccount)) return walletOrAccount;
  try {
    const wallet = await io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletOrAccount)}`);
    return wallet.account_number;
  } catch (error) {
    throw notYourWallet(error, walletOrAccount, label, ' nor a 10-digit account number');
  }
}

/** The API's NOT_FOUND for a wallet, with the argument that named it and where to find the right id; any other error as it is. */
export function notYourWallet(error: unknown, value: string, label: string, or = ''): unknown {
  if (!(error instanceof ApiError) || error.code !== 'NOT_FOUND' || error.message !== 'wallet not found') return error;
  return new ApiError(error.status, error.code, `wallet not found: ${label} "${value}" is not one of your wallet ids${or} (\`ledger wallets list\` shows them)`);
}
