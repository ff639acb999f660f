import type { Generated } from 'kysely';

export type AgentTrigger = 'BALANCE_ABOVE' | 'BALANCE_BELOW' | 'ON_CREDIT' | 'ON_CREDIT_AMOUNT_ABOVE';
export type AgentAction = 'SWEEP' | 'PARTIAL_SWEEP' | 'WEBHOOK_NOTIFY' | 'LOCK_WALLET';

export interface AgentTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  wallet_id: string;
  name: string;
  trigger: AgentTrigger;
  threshold: number | null;
  action: AgentAction;
  destination_wallet_id: string | null;
  sweep_amount: number | null;
  is_active: number;
  trigger_count: number;
  last_triggered_at: string | null;
  created_at: string;
}

/** One evaluation that fired (or was stopped): the trace behind GET /sandbox/agents/:id/runs. */
export interface AgentRunTable {
  seq: Generated<number>;
  id: string;
  agent_id: string;
  developer_id: string;
  wallet_id: string;
  /** The payment that started the cascade. */
  origin_transaction_id: string;
  /** The balance change that this run answered. */
  cause_transaction_id: string;
  hop: number;
  outcome: 'DONE' | 'FAILED' | 'SKIPPED';
  reason: string;
  effect: string;
  transaction_id: string | null;
  error: string | null;
  balance: number;
  created_at: string;
}
