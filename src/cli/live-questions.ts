import type { Wallet } from '../api/schemas/wallets.js';
import type { Io } from './io.js';
import { naira } from '../text/format.js';

/**
 * What a command that changes something on a live service shows before it asks for the typed
 * confirmation (io.confirmLive), for the commands whose question is not already a y/N question of
 * theirs (those pass `typed` to prompts.ts `confirm`). Each asks only at a terminal without --yes; in
 * a script, the client's guard refuses the write unless --live --yes were given.
 */

/** "Ada Obi's wallet 0123456789": whose money it is, read before anything is asked. */
async function whose(io: Io, walletId: string): Promise<Wallet> {
  return io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletId)}`);
}

const owner = (wallet: Wallet) => `${wallet.first_name} ${wallet.last_name}`;

/** An internal transfer: from whom, to which wallet, how much; typed: the amount. */
export async function confirmLiveTransfer(io: Io, from: string, toAccount: string, amount: number): Promise<void> {
  if (!io.asksLive()) return;
  const source = await whose(io, from);
  await io.confirmLive(
    `Send ${naira(amount)} from ${owner(source)} (${source.account_number}) to ${toAccount}, one of your wallets.`,
    String(amount),
    'the amount in kobo',
  );
}

/** A new agent: which wallet it will act on, and what it will do; typed: that wallet's account number. */
export async function confirmLiveAgent(
  io: Io,
  walletId: string,
  agent: { name?: unknown; trigger?: unknown; action?: unknown },
): Promise<void> {
  if (!io.asksLive()) return;
  const wallet = await whose(io, walletId);
  await io.confirmLive(
    `Attach agent "${String(agent.name)}" (${String(agent.trigger)} → ${String(agent.action)}) ` +
      `to ${owner(wallet)}'s wallet ${wallet.account_number}: it acts on real money from then on.`,
    wallet.account_number,
    'the account number',
  );
}

/** An agent switched on or off; typed: `on` or `off`. */
export async function confirmLiveToggle(io: Io, walletId: string, agentId: string, on: boolean): Promise<void> {
  if (!io.asksLive()) return;
  const wallet = await whose(io, walletId);
  const word = on ? 'on' : 'off';
  await io.confirmLive(`Switch agent ${agentId} ${word} on ${owner(wallet)}'s wallet ${wallet.account_number}.`, word);
}

/** Deliveries sent again to their endpoints; typed: how many. */
export async function confirmLiveRetry(io: Io, count: number, which: string): Promise<void> {
  if (!io.asksLive()) return;
  await io.confirmLive(
    `Send ${which} again to ${count === 1 ? 'its endpoint' : 'their endpoints'} now.`,
    String(count),
    'the number of deliveries',
  );
}
