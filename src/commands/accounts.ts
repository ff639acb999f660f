import type { Wallet } from '../api/schemas/wallets.js';
import { UsageError } from '../client/errors.js';
import type { Io } from './io.js';
import { naira } from './output/format.js';
import { fetchAll } from './paging.js';
import { searchFor } from './prompts.js';

/** A 10-digit argument is an account number; anything else is taken as a wallet id and looked up. */
export async function accountNumberOf(io: Io, walletOrAccount: string): Promise<string> {
  if (/^\d{10}$/.test(walletOrAccount)) return walletOrAccount;
  const wallet = await io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletOrAccount)}`);
  return wallet.account_number;
}

/**
 * Lets a person pick one of the developer's ACTIVE wallets by typing to search (up to 2,000 of them),
 * leaving out `exclude`; without a terminal it is a usage error naming `flag`.
 */
export async function chooseWallet(io: Io, flag: string, message: string, options: { exclude?: string; none: string }): Promise<string> {
  const wallets = await fetchAll(
    (page) => io.client().sandbox<{ items: Wallet[]; total: number }>('GET', '/sandbox/wallets', { query: { status: 'ACTIVE', ...page } }),
    20,
  );
  const choices = wallets
    .filter((w) => w.id !== options.exclude)
    .map((w) => ({ name: `${w.account_name} · ${w.account_number} · ${w.customer_reference} · ${naira(w.balance)}`, value: w.id }));
  if (choices.length === 0) throw new UsageError(options.none);
  return searchFor(io, flag, message, choices);
}
