import type { Trx } from '../db/database.js';

/**
 * What `reset` empties for one developer, children before parents. Each entry names how a row is
 * tied to the developer: its own `developer_id`, or through a parent that has one.
 */
const RESET_ORDER = [
  ['agent_runs', 'own'],
  ['agents', 'own'],
  ['webhook_attempts', 'log'],
  ['receiver_events', 'own'],
  ['receiver_event_counts', 'own'],
  ['webhook_log_counts', 'own'],
  ['payouts', 'own'],
  ['webhook_logs', 'own'],
  ['events', 'own'],
  ['idempotency_keys', 'own'],
  ['inbound_transfers', 'own'],
  ['suspense_items', 'own'],
  ['transaction_counts', 'wallet'],
  ['transactions', 'own'],
  ['entries', 'posting'],
  ['postings', 'own'],
  ['wallets', 'own'],
] as const;

/**
 * Empties one developer's wallets, money, suspense items, agents, events and deliveries, and zeroes
 * its system accounts so its books start balanced again (contract §8). Its account, keys, webhook
 * endpoint and clock stay; no other developer's row is touched. Every developer's books balance on
 * their own (a payout to another developer's account leaves one set of books and enters the other),
 * so removing one developer's leaves the rest balanced.
 * @example const removed = await resetDeveloper(trx, developerId);
 */
export async function resetDeveloper(trx: Trx, developerId: string): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const [table, tie] of RESET_ORDER) {
    let query = trx.deleteFrom(table);
    if (tie === 'own') query = query.where('developer_id', '=', developerId);
    else if (tie === 'log') query = query.where('log_id', 'in', trx.selectFrom('webhook_logs').select('id').where('developer_id', '=', developerId));
    else if (tie === 'wallet') query = query.where('wallet_id', 'in', trx.selectFrom('wallets').select('id').where('developer_id', '=', developerId));
    else query = query.where('posting_id', 'in', trx.selectFrom('postings').select('id').where('developer_id', '=', developerId));
    const result = await query.executeTakeFirst();
    removed[table] = Number(result.numDeletedRows);
  }
  await trx.deleteFrom('accounts').where('developer_id', '=', developerId).where('kind', '=', 'WALLET').execute();
  await trx.updateTable('accounts').set({ balance: 0 }).where('developer_id', '=', developerId).execute();
  return removed;
}
