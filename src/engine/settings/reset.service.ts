import type { Trx } from '../db/database.js';

/** Tables that `reset` empties, children before parents. Developers, keys and settings stay. */
const RESET_ORDER = [
  'agent_runs',
  'agents',
  'webhook_attempts',
  'receiver_events',
  'payouts',
  'webhook_logs',
  'events',
  'idempotency_keys',
  'inbound_transfers',
  'suspense_items',
  'transaction_counts',
  'transactions',
  'entries',
  'postings',
  'wallets',
] as const;

/**
 * Empties everything but the developer accounts, their keys and the clock (contract §8),
 * and zeroes the system accounts so the ledger starts balanced again.
 * @example await resetSandbox(trx);
 */
export async function resetSandbox(trx: Trx): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const table of RESET_ORDER) {
    const result = await trx.deleteFrom(table).executeTakeFirst();
    removed[table] = Number(result.numDeletedRows);
  }
  await trx.deleteFrom('accounts').where('kind', '=', 'WALLET').execute();
  await trx.updateTable('accounts').set({ balance: 0 }).execute();
  return removed;
}
