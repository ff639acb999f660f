import type { Trx } from '../db/database.js';
import { prepareInsertRows } from '../db/prepared.js';
import { API_VERSION, type EngineEnv } from '../env.js';
import type { TransactionRow } from '../ledger/ledger.service.js';
import { countNewLogs } from './webhook-logs.repository.js';

/** Every event type of contract §7. */
export const EVENT_TYPES = [
  'ledger.credit',
  'ledger.debit',
  'transfer.completed',
  'transfer.failed',
  'suspense.created',
  'suspense.resolved',
  'agent.triggered',
  'agent.failed',
  'wallet.closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventEnvelope {
  event_id: string;
  event_type: EventType;
  api_version: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * Records an event and its PENDING webhook delivery in the caller's transaction (the outbox):
 * if the money commits, so does its notification; if it rolls back, neither exists.
 * @example await emitEvent(trx, env, developerId, 'wallet.closed', { wallet_id });
 */
export async function emitEvent(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  type: EventType,
  data: Record<string, unknown>,
): Promise<EventEnvelope> {
  return (await emitEvents(trx, env, developerId, [{ type, data }]))[0]!;
}

/**
 * Several events of one developer and their deliveries, as `emitEvent` records one, each kind of
 * row in one statement (the two legs of a transfer announce themselves together).
 * @example const [debited, credited] = await emitEvents(trx, env, developerId, [{ type: 'ledger.debit', data }, { type: 'ledger.credit', data }]);
 */
export async function emitEvents(trx: Trx, env: EngineEnv, developerId: string, events: { type: EventType; data: Record<string, unknown> }[]): Promise<EventEnvelope[]> {
  const now = env.clock.now().toISOString();
  const envelopes: EventEnvelope[] = [];
  const eventRows = [];
  const deliveries = [];
  for (const { type, data } of events) {
    const envelope: EventEnvelope = { event_id: env.ids.uuid(), event_type: type, api_version: API_VERSION, created_at: now, data };
    envelopes.push(envelope);
    eventRows.push({ id: envelope.event_id, developer_id: developerId, type, payload: JSON.stringify(envelope), created_at: now });
    // The outbox row: a PENDING delivery, due at once. It sends the event's payload, stored once, on the event.
    deliveries.push({
      id: env.ids.uuid(),
      developer_id: developerId,
      event_id: envelope.event_id,
      event_type: type,
      status: 'PENDING' as const,
      http_status_code: null,
      response_body: null,
      attempt_count: 0,
      next_retry_at: now,
      delivered_at: null,
      created_at: now,
    });
  }
  await insertEvents(trx, eventRows);
  await insertDeliveries(trx, deliveries);
  await countNewLogs(trx, deliveries.map((d) => ({ developer_id: developerId, event_type: d.event_type })));
  return envelopes;
}

const insertEvents = prepareInsertRows('events', ['id', 'developer_id', 'type', 'payload', 'created_at']);

const insertDeliveries = prepareInsertRows('webhook_logs', [
  'id',
  'developer_id',
  'event_id',
  'event_type',
  'status',
  'http_status_code',
  'response_body',
  'attempt_count',
  'next_retry_at',
  'delivered_at',
  'created_at',
]);

/** `ledger.credit` / `ledger.debit` for a wallet transaction (contract §7: at least wallet_id, amount, transaction_id, balance_after). */
export async function emitLedgerEvent(trx: Trx, env: EngineEnv, tx: TransactionRow): Promise<EventEnvelope> {
  return (await emitLedgerEvents(trx, env, [tx]))[0]!;
}

/** The ledger events of several transactions of one developer (both legs of a transfer), in one go. */
export async function emitLedgerEvents(trx: Trx, env: EngineEnv, txs: TransactionRow[]): Promise<EventEnvelope[]> {
  return emitEvents(trx, env, txs[0]!.developer_id, txs.map((tx) => ({ type: tx.type === 'CREDIT' ? 'ledger.credit' : 'ledger.debit', data: ledgerEventData(tx) })));
}

function ledgerEventData(tx: TransactionRow): Record<string, unknown> {
  return {
    transaction_id: tx.id,
    wallet_id: tx.wallet_id,
    type: tx.type,
    amount: tx.amount,
    balance_before: tx.balance_before,
    balance_after: tx.balance_after,
    currency: tx.currency,
    status: tx.status,
    provider_reference: tx.provider_reference,
    sender_name: tx.sender_name,
    sender_account: tx.sender_account,
    narration: tx.raw_narration,
    ...(tx.destination_account_number
      ? {
          destination_account_number: tx.destination_account_number,
          destination_bank_code: tx.destination_bank_code,
          destination_account_name: tx.destination_account_name,
        }
      : {}),
  };
}
