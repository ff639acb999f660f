import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { invalidField, LedgerError, notFound } from '../errors.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import { findWallet } from '../wallets/wallets.repository.js';
import { getWallet } from '../wallets/wallets.service.js';
import type { AgentAction, AgentRunTable, AgentTable, AgentTrigger } from './agents.table.js';

export type AgentRow = Selectable<AgentTable>;
export type AgentRunRow = Selectable<AgentRunTable>;

export interface CreateAgentInput {
  name: string;
  trigger: AgentTrigger;
  threshold?: number | undefined;
  action: AgentAction;
  destination_wallet_id?: string | undefined;
  sweep_amount?: number | undefined;
}

/** Which optional fields each trigger and action uses (decisions: Agents): the rest are refused. */
export const TRIGGER_NEEDS_THRESHOLD: Record<AgentTrigger, boolean> = {
  BALANCE_ABOVE: true,
  BALANCE_BELOW: true,
  ON_CREDIT: false,
  ON_CREDIT_AMOUNT_ABOVE: true,
};
export const ACTION_NEEDS: Record<AgentAction, { destination: boolean; sweepAmount: boolean }> = {
  SWEEP: { destination: true, sweepAmount: false },
  PARTIAL_SWEEP: { destination: true, sweepAmount: true },
  WEBHOOK_NOTIFY: { destination: false, sweepAmount: false },
  LOCK_WALLET: { destination: false, sweepAmount: false },
};

/**
 * Attaches an agent to an active wallet. The destination of a sweep must be another active wallet
 * of the same developer: another developer's is 404, a closed one 409, the agent's own 400.
 * @example
 * await createAgent(trx, env, developerId, walletId, {
 *   name: 'Save', trigger: 'BALANCE_ABOVE', threshold: 1_000_000, action: 'SWEEP', destination_wallet_id: savings,
 * })
 */
export async function createAgent(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  walletId: string,
  input: CreateAgentInput,
): Promise<AgentRow> {
  const wallet = await getWallet(trx, developerId, walletId);
  if (wallet.status === 'CLOSED')
    throw new LedgerError('WALLET_CLOSED', 'agents cannot be attached to a closed wallet');
  if (input.destination_wallet_id !== undefined) {
    if (input.destination_wallet_id === wallet.id)
      throw invalidField('destination_wallet_id', "must be another wallet, not the agent's own");
    const destination = await findWallet(trx, developerId, input.destination_wallet_id);
    if (!destination) throw notFound('destination wallet');
    if (destination.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'the destination wallet is closed');
  }
  return trx
    .insertInto('agents')
    .values({
      id: env.ids.uuid(),
      developer_id: developerId,
      wallet_id: wallet.id,
      name: input.name,
      trigger: input.trigger,
      threshold: input.threshold ?? null,
      action: input.action,
      destination_wallet_id: input.destination_wallet_id ?? null,
      sweep_amount: input.sweep_amount ?? null,
      is_active: 1,
      trigger_count: 0,
      last_triggered_at: null,
      created_at: env.clock.now().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getAgent(trx: Trx, developerId: string, agentId: string, walletId?: string): Promise<AgentRow> {
  let query = trx.selectFrom('agents').selectAll().where('developer_id', '=', developerId).where('id', '=', agentId);
  if (walletId !== undefined) query = query.where('wallet_id', '=', walletId);
  const agent = await query.executeTakeFirst();
  if (!agent) throw notFound('agent');
  return agent;
}

export async function toggleAgent(
  trx: Trx,
  developerId: string,
  walletId: string,
  agentId: string,
  isActive: boolean,
): Promise<AgentRow> {
  const wallet = await getWallet(trx, developerId, walletId);
  const agent = await getAgent(trx, developerId, agentId, walletId);
  // A closed wallet's agents stop (decisions: Agents): one is not switched on again (switching off
  // is harmless).
  if (isActive && wallet.status === 'CLOSED')
    throw new LedgerError('WALLET_CLOSED', 'agents of a closed wallet cannot be switched on');
  return trx
    .updateTable('agents')
    .set({ is_active: isActive ? 1 : 0 })
    .where('id', '=', agent.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listAgents(
  trx: Trx,
  developerId: string,
  query: PageQuery & { wallet_id?: string | undefined },
): Promise<Page<AgentRow>> {
  let base = trx.selectFrom('agents').where('developer_id', '=', developerId);
  if (query.wallet_id) base = base.where('wallet_id', '=', query.wallet_id);
  return paginate<AgentRow>(base, query);
}

export async function listRuns(
  trx: Trx,
  developerId: string,
  agentId: string,
  query: PageQuery,
): Promise<Page<AgentRunRow>> {
  const agent = await getAgent(trx, developerId, agentId);
  return paginate<AgentRunRow>(trx.selectFrom('agent_runs').where('agent_id', '=', agent.id), query);
}
