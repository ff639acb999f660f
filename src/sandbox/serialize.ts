import type { SuspenseItem, SuspenseItemWithNotes } from '../api/schemas/suspense.js';
import type { Payout } from '../api/schemas/banks.js';
import type { Transaction } from '../api/schemas/transactions.js';
import type { PayoutRow } from '../engine/payouts/payouts.table.js';
import type { Wallet } from '../api/schemas/wallets.js';
import type { InboundOutcome } from '../engine/inbound/inbound.service.js';
import type { TransactionRow } from '../engine/ledger/ledger.service.js';
import type { SuspenseRow } from '../engine/suspense/suspense.repository.js';
import type { SuspenseWithNotes } from '../engine/suspense/suspense-notes.service.js';
import type { WalletRow } from '../engine/wallets/wallets.repository.js';
import type { WebhookAttempt, WebhookLog } from '../api/schemas/webhooks.js';
import type { Agent } from '../api/schemas/agents.js';
import type { AgentRow, AgentRunRow } from '../engine/agents/agents.service.js';
import type { WebhookAttemptRow, WebhookLogRow } from '../engine/events/webhooks.service.js';

/** Database rows → the resources of the interface document. */

export function toWallet(row: WalletRow): Wallet {
  return {
    id: row.id,
    developer_id: row.developer_id,
    customer_reference: row.customer_reference,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    label: row.label,
    account_number: row.account_number,
    bank_name: row.bank_name,
    account_name: row.account_name,
    balance: row.balance,
    currency: 'NGN',
    status: row.status,
    system_prompt: row.system_prompt,
    allow_transfers_out: row.allow_transfers_out === 1,
    sub_account_id: row.sub_account_id,
    created_at: row.created_at,
    closed_at: row.closed_at,
  };
}

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    wallet_id: row.wallet_id,
    developer_id: row.developer_id,
    type: row.type,
    amount: row.amount,
    balance_before: row.balance_before,
    balance_after: row.balance_after,
    currency: 'NGN',
    status: row.status,
    provider_reference: row.provider_reference,
    sender_name: row.sender_name,
    sender_account: row.sender_account,
    raw_narration: row.raw_narration,
    service_intelligence: row.service_intelligence ? JSON.parse(row.service_intelligence) : null,
    destination_account_number: row.destination_account_number,
    destination_bank_code: row.destination_bank_code,
    destination_account_name: row.destination_account_name,
    fee: row.fee,
    agent_id: row.agent_id,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
  };
}

export function toSuspenseItem(row: SuspenseRow): SuspenseItem {
  return {
    id: row.id,
    developer_id: row.developer_id,
    account_number: row.account_number,
    wallet_id: row.wallet_id,
    amount: row.amount,
    sender_name: row.sender_name,
    sender_account: row.sender_account,
    sender_bank_code: row.sender_bank_code,
    raw_narration: row.raw_narration,
    provider_reference: row.provider_reference,
    reason: row.reason,
    status: row.status,
    raw_payload: JSON.parse(row.raw_payload),
    service_intelligence: row.service_intelligence ? JSON.parse(row.service_intelligence) : null,
    resolved_at: row.resolved_at,
    resolution_note: row.resolution_note,
    resolution_action: row.resolution_action,
    resolution_transaction_id: row.resolution_transaction_id,
    created_at: row.created_at,
  };
}

export function toSuspenseWithNotes({ item, notes }: SuspenseWithNotes): SuspenseItemWithNotes {
  return {
    ...toSuspenseItem(item),
    notes: notes.map((n) => ({
      note: n.note,
      kind: n.kind,
      created_at: n.created_at,
      author: { developer_id: n.author_id, business_name: n.author_name },
    })),
  };
}

export function toInboundOutcome(outcome: InboundOutcome) {
  return {
    outcome: outcome.outcome,
    ...(outcome.transaction ? { transaction: toTransaction(outcome.transaction) } : {}),
    ...(outcome.suspense_item ? { suspense_item: toSuspenseItem(outcome.suspense_item) } : {}),
  };
}

export function toPage<Row, Item>(
  page: { items: Row[]; total: number; page: number; limit: number },
  map: (row: Row) => Item,
) {
  return { items: page.items.map(map), total: page.total, page: page.page, limit: page.limit };
}

export function toWebhookLog(row: WebhookLogRow): WebhookLog {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    payload: JSON.parse(row.payload),
    status: row.status,
    http_status_code: row.http_status_code,
    response_body: row.response_body,
    attempt_count: row.attempt_count,
    next_retry_at: row.next_retry_at,
    delivered_at: row.delivered_at,
    created_at: row.created_at,
  };
}

export function toAttempt(row: WebhookAttemptRow): WebhookAttempt {
  return {
    id: row.id,
    attempt_number: row.attempt_number,
    manual: row.manual === 1,
    url: row.url,
    http_status_code: row.http_status_code,
    response_body: row.response_body,
    error: row.error,
    duration_ms: row.duration_ms,
    created_at: row.created_at,
  };
}

export function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    wallet_id: row.wallet_id,
    developer_id: row.developer_id,
    name: row.name,
    trigger: row.trigger,
    threshold: row.threshold,
    action: row.action,
    destination_wallet_id: row.destination_wallet_id,
    sweep_amount: row.sweep_amount,
    is_active: row.is_active === 1,
    trigger_count: row.trigger_count,
    last_triggered_at: row.last_triggered_at,
    created_at: row.created_at,
  };
}

export function toAgentRun(row: AgentRunRow) {
  return {
    id: row.id,
    agent_id: row.agent_id,
    wallet_id: row.wallet_id,
    outcome: row.outcome,
    reason: row.reason,
    effect: row.effect,
    transaction_id: row.transaction_id,
    error: row.error,
    cause_transaction_id: row.cause_transaction_id,
    origin_transaction_id: row.origin_transaction_id,
    hop: row.hop,
    balance: row.balance,
    created_at: row.created_at,
  };
}

export function toPayout(row: PayoutRow): Payout {
  return {
    transaction_id: row.transaction_id,
    fee_transaction_id: row.fee_transaction_id,
    reversal_transaction_id: row.reversal_transaction_id,
    wallet_id: row.wallet_id,
    status: row.status,
    amount: row.amount,
    fee: row.fee,
    destination_account_number: row.destination_account_number,
    destination_bank_code: row.destination_bank_code,
    destination_account_name: row.destination_account_name,
    provider_reference: row.provider_reference,
    due_at: row.due_at,
    resolved_at: row.resolved_at,
    created_at: row.created_at,
  };
}
