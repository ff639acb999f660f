import type { Wallet } from '../api/schemas/wallets.js';
import type { Io } from './io.js';

/** A 10-digit argument is an account number; anything else is taken as a wallet id and looked up. */
export async function accountNumberOf(io: Io, walletOrAccount: string): Promise<string> {
  if (/^\d{10}$/.test(walletOrAccount)) return walletOrAccount;
  const wallet = await io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletOrAccount)}`);
  return wallet.account_number;
}
