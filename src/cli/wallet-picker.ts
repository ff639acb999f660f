import type { Wallet } from '../api/schemas/wallets.js';
import { UsageError } from '../client/errors.js';
import type { Io } from './io.js';
import { money } from '../text/format.js';
import { fetchAll } from './paging.js';
import { needTerminal, searchFor } from './prompts.js';
import { offers } from './remote.js';

/** A server without the sandbox's wallet list has nothing to pick from: the whole id is needed, given with `flag` (UNSUPPORTED, before anything is sent). */
async function requireWalletList(io: Io, flag: string): Promise<void> {
  if (await offers(io, 'GET', '/sandbox/wallets')) return;
  const { unsupported } = await import('./unsupported.js');
  throw unsupported(io, 'has no list of wallets to pick from', `give ${flag} with the whole wallet id`);
}

/** The developer's ACTIVE wallets, up to 2,000 of them, to pick one for `flag`. */
export async function activeWallets(io: Io, flag: string): Promise<Wallet[]> {
  await requireWalletList(io, flag);
  return fetchAll(
    (page) =>
      io.client().sandbox<{ items: Wallet[]; total: number }>('GET', '/sandbox/wallets', {
        query: { status: 'ACTIVE', ...page },
      }),
    20,
  );
}

/**
 * Lets a person pick one of `wallets` (default: every ACTIVE one) by typing to search, leaving out
 * `exclude`; `suggested` is offered before anything is typed. Without a terminal it is a usage error
 * naming `flag`.
 */
export async function chooseWallet(
  io: Io,
  flag: string,
  message: string,
  options: { exclude?: string; none: string; suggested?: string | undefined; wallets?: Wallet[] },
): Promise<string> {
  needTerminal(io, flag);
  await requireWalletList(io, flag);
  const wallets = options.wallets ?? (await activeWallets(io, flag));
  const choices = wallets
    .filter((w) => w.id !== options.exclude)
    .map((w) => ({
      name: `${w.account_name} · ${w.account_number} · ${w.customer_reference} · ${money(w.balance)}`,
      value: w.id,
    }));
  if (choices.length === 0) throw new UsageError(options.none);
  return searchFor(io, flag, message, choices, { suggested: options.suggested });
}
