import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import { inSavepoint } from '../db/savepoint.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';
import { emitEvent } from '../events/events.service.js';
import type { TransactionRow } from '../ledger/ledger.service.js';
import { moveBetweenWallets } from '../transfers/internal.js';
import { findWallet } from '../wallets/wallets.repository.js';
import type { AgentTable } from './agents.table.js';

type AgentRow = Selectable<AgentTable>;

/** Agent-started moves a payment may cause before the cascade stops (decisions: Agents). */
export const MAX_HOPS = 8;

/** A wallet's active agents in creation order: asked after every movement of money. */
const activeAgents = prepare(
  (db, p: { walletId: string }) =>
    db.selectFrom('agents').selectAll().where('wallet_id', '=', p.walletId).where('is_active', '=', 1).orderBy('seq'),
  // Asked twice per transfer, and most wallets have none: kept by the connection until an agent changes.
  { keptUntil: 'agents' },
);

/** One originating payment's cascade: how deep it is and which agents already fired for it. */
export interface Cascade {
  originTransactionId: string;
  hop: number;
  fired: Set<string>;
}

interface Change {
  walletId: string;
  developerId: string;
  before: number;
  after: number;
  credit: boolean;
  amount: number;
  cause: TransactionRow;
}

/** Groups a movement's transactions by wallet: one balance change each, in order of appearance. */
function changes(transactions: TransactionRow[]): Change[] {
  const byWallet = new Map<string, TransactionRow[]>();
  for (const tx of transactions) byWallet.set(tx.wallet_id, [...(byWallet.get(tx.wallet_id) ?? []), tx]);
  return [...byWallet.values()].map((txs) => ({
    walletId: txs[0]!.wallet_id,
    developerId: txs[0]!.developer_id,
    before: txs[0]!.balance_before,
    after: txs.at(-1)!.balance_after,
    credit: txs[0]!.type === 'CREDIT',
    amount: txs[0]!.amount,
    cause: txs[0]!,
  }));
}

/** Why an agent fires on a change, or undefined when it does not (threshold crossing, not staying above). */
function firesBecause(agent: AgentRow, change: Change): string | undefined {
  const t = agent.threshold ?? 0;
  switch (agent.trigger) {
    case 'BALANCE_ABOVE':
      return change.before <= t && change.after > t
        ? `balance crossed above ${t} (${change.before} → ${change.after})`
        : undefined;
    case 'BALANCE_BELOW':
      return change.before >= t && change.after < t
        ? `balance crossed below ${t} (${change.before} → ${change.after})`
        : undefined;
    case 'ON_CREDIT':
      return change.credit ? `credit of ${change.amount}` : undefined;
    case 'ON_CREDIT_AMOUNT_ABOVE':
      return change.credit && change.amount > t ? `credit of ${change.amount}, above ${t}` : undefined;
  }
}

interface Outcome {
  outcome: 'DONE' | 'FAILED';
  effect: string;
  error?: string;
  moved?: [TransactionRow, TransactionRow];
}

async function act(trx: Trx, env: EngineEnv, agent: AgentRow, change: Change, cascade: Cascade): Promise<Outcome> {
  const wallet = (await findWallet(trx, agent.developer_id, agent.wallet_id))!;
  if (agent.action === 'LOCK_WALLET') {
    await trx.updateTable('wallets').set({ allow_transfers_out: 0 }).where('id', '=', wallet.id).execute();
    return { outcome: 'DONE', effect: 'locked the wallet: allow_transfers_out is now false' };
  }
  if (agent.action === 'WEBHOOK_NOTIFY') {
    await emitEvent(trx, env, agent.developer_id, 'agent.triggered', {
      agent_id: agent.id,
      agent_name: agent.name,
      wallet_id: wallet.id,
      trigger: agent.trigger,
      threshold: agent.threshold,
      action: agent.action,
      transaction_id: change.cause.id,
      origin_transaction_id: cascade.originTransactionId,
      balance_before: change.before,
      balance: wallet.balance,
    });
    return { outcome: 'DONE', effect: 'sent agent.triggered' };
  }
  const amount = agent.action === 'SWEEP' ? wallet.balance : agent.sweep_amount!;
  const destination = await findWallet(trx, agent.developer_id, agent.destination_wallet_id!);
  let error: string | undefined;
  if (!wallet.allow_transfers_out) error = 'TRANSFERS_DISABLED: transfers out of this wallet are disabled';
  else if (!destination || destination.status === 'CLOSED') error = 'WALLET_CLOSED: the destination wallet is closed';
  else if (amount <= 0) error = 'INSUFFICIENT_FUNDS: nothing to sweep, the balance is 0';
  else if (wallet.balance < amount)
    error = `INSUFFICIENT_FUNDS: balance ${wallet.balance} is less than sweep_amount ${amount}`;
  else {
    try {
      // In a savepoint: a move the ledger refuses (the destination cannot hold it) leaves no trace.
      const moved = await inSavepoint(trx, () =>
        moveBetweenWallets(trx, env, wallet, destination, amount, {
          narration: `Agent sweep: ${agent.name}`.slice(0, 100),
          agentId: agent.id,
        }),
      );
      return { outcome: 'DONE', effect: `moved ${amount} to wallet ${destination.id}`, moved };
    } catch (refused) {
      if (!(refused instanceof LedgerError)) throw refused;
      error = `${refused.code}: ${refused.message}`;
    }
  }
  await emitEvent(trx, env, agent.developer_id, 'agent.failed', {
    agent_id: agent.id,
    agent_name: agent.name,
    wallet_id: wallet.id,
    action: agent.action,
    error,
    transaction_id: change.cause.id,
    origin_transaction_id: cascade.originTransactionId,
    balance: wallet.balance,
  });
  return { outcome: 'FAILED', effect: 'moved nothing', error };
}

async function record(
  trx: Trx,
  env: EngineEnv,
  agent: AgentRow,
  change: Change,
  cascade: Cascade,
  run: {
    outcome: 'DONE' | 'FAILED' | 'SKIPPED';
    reason: string;
    effect: string;
    transactionId?: string;
    error?: string;
  },
) {
  const wallet = (await findWallet(trx, agent.developer_id, agent.wallet_id))!;
  await trx
    .insertInto('agent_runs')
    .values({
      id: env.ids.uuid(),
      agent_id: agent.id,
      developer_id: agent.developer_id,
      wallet_id: agent.wallet_id,
      origin_transaction_id: cascade.originTransactionId,
      cause_transaction_id: change.cause.id,
      hop: cascade.hop,
      outcome: run.outcome,
      reason: run.reason,
      effect: run.effect,
      transaction_id: run.transactionId ?? null,
      error: run.error ?? null,
      balance: wallet.balance,
      created_at: env.clock.now().toISOString(),
    })
    .execute();
}

/**
 * Evaluates the active agents of every wallet a movement touched, in creation order, inside the
 * movement's own database transaction. Sweeps they make are evaluated in turn, one hop deeper;
 * no agent fires twice for one originating payment, and nothing fires past 8 hops.
 * Resolves true when any agent fired (and so may have changed balances or wallets).
 * @example await runAgents(trx, env, [debit, credit])
 */
export async function runAgents(
  trx: Trx,
  env: EngineEnv,
  transactions: TransactionRow[],
  cascade?: Cascade,
): Promise<boolean> {
  let fired = false;
  if (transactions.length === 0) return fired;
  const context = cascade ?? { originTransactionId: transactions[0]!.id, hop: 0, fired: new Set<string>() };
  for (const change of changes(transactions)) {
    // Most wallets have no agents: ask that first, and load the wallet only when there are some.
    const { rows: agents } = await activeAgents(trx, { walletId: change.walletId });
    if (agents.length === 0) continue;
    const wallet = await findWallet(trx, change.developerId, change.walletId);
    if (!wallet || wallet.status === 'CLOSED') continue;
    for (const agent of agents) {
      const reason = firesBecause(agent, change);
      if (!reason) continue;
      fired = true;
      if (context.hop >= MAX_HOPS) {
        await record(trx, env, agent, change, context, {
          outcome: 'SKIPPED',
          reason,
          effect: `nothing: the cascade reached ${MAX_HOPS} hops`,
        });
        continue;
      }
      if (context.fired.has(agent.id)) {
        await record(trx, env, agent, change, context, {
          outcome: 'SKIPPED',
          reason,
          effect: 'nothing: this agent already fired for this payment',
        });
        continue;
      }
      context.fired.add(agent.id);
      const result = await act(trx, env, agent, change, context);
      await trx
        .updateTable('agents')
        .set((eb) => ({ trigger_count: eb('trigger_count', '+', 1), last_triggered_at: env.clock.now().toISOString() }))
        .where('id', '=', agent.id)
        .execute();
      await record(trx, env, agent, change, context, {
        outcome: result.outcome,
        reason,
        effect: result.effect,
        ...(result.moved ? { transactionId: result.moved[0].id } : {}),
        ...(result.error ? { error: result.error } : {}),
      });
      if (result.moved) await runAgents(trx, env, result.moved, { ...context, hop: context.hop + 1 });
    }
  }
  return fired;
}
