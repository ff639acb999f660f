import type { Trx } from '../db/database.js';
import { prepareInsertSeqs } from '../db/prepared.js';
import { deliveriesOf } from '../db/write-transaction.js';
import { API_VERSION, type EngineEnv } from '../env.js';
import type { TransactionRow } from '../ledger/ledger.service.js';
import { envelopeJson, ledgerEventData } from './ledger-payload.js';
import { developerSeq, EVENT_TYPE_CODES, type StoredId, storedId, typeCode } from './stored.js';
import { countNewLogs, type WebhookLogRow } from './webhook-logs.repository.js';

/** Every event type (decisions: Webhooks), stored by its place in this list (stored.ts). */
export const EVENT_TYPES = EVENT_TYPE_CODES;
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
export async function emitEvents(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  events: { type: EventType; data: Record<string, unknown>; transactionSeq?: number }[],
): Promise<EventEnvelope[]> {
  const at = env.clock.now();
  const now = at.toISOString();
  const nowMs = at.getTime();
  const developer = await developerSeq(trx, developerId);
  const envelopes: EventEnvelope[] = [];
  const eventRows: {
    id: StoredId;
    developer_seq: number;
    type_code: number;
    payload: string;
    transaction_seq: number | null;
    created_at_ms: number;
  }[] = [];
  const deliveries = [];
  const deliveryIds: string[] = [];
  for (const { type, data, transactionSeq } of events) {
    const envelope: EventEnvelope = {
      event_id: env.ids.uuid(),
      event_type: type,
      api_version: API_VERSION,
      created_at: now,
      data,
    };
    envelopes.push(envelope);
    // With a transaction to build it from, no payload is stored ('': see ledger-payload.ts).
    const payload = transactionSeq === undefined ? envelopeJson(envelope.event_id, type, now, data) : '';
    eventRows.push({
      id: storedId(trx, envelope.event_id),
      developer_seq: developer,
      type_code: typeCode(type),
      payload,
      transaction_seq: transactionSeq ?? null,
      created_at_ms: nowMs,
    });
    // The outbox row: a PENDING delivery, due at once. It sends the event's payload, stored once, on the event.
    const deliveryId = env.ids.uuid();
    deliveryIds.push(deliveryId);
    deliveries.push({
      id: storedId(trx, deliveryId),
      developer_seq: developer,
      event_seq: 0,
      event_type_code: typeCode(type),
      status: 'PENDING' as const,
      http_status_code: null,
      response_body: null,
      attempt_count: 0,
      next_retry_at_ms: nowMs,
      delivered_at_ms: null,
    });
  }
  // Each delivery names its event by seq.
  const eventSeqs = await insertEvents(trx, eventRows);
  deliveries.forEach((delivery, i) => (delivery.event_seq = eventSeqs[i]!));
  const deliverySeqs = await insertDeliveries(trx, deliveries);
  const made = deliveriesOf(trx);
  if (made) {
    // The deliveries as the due-deliveries query would read them back (`fromStoredLog` of the rows
    // above, made from the values they were made from), handed back by the write once it commits.
    made.push(
      ...deliveries.map((delivery, i): WebhookLogRow => {
        const event = eventRows[i]!;
        const envelope = envelopes[i]!;
        const payload =
          event.payload === ''
            ? envelopeJson(envelope.event_id, envelope.event_type, now, envelope.data)
            : event.payload;
        return {
          event_seq: delivery.event_seq,
          status: delivery.status,
          http_status_code: null,
          response_body: null,
          attempt_count: 0,
          seq: deliverySeqs[i]!,
          id: deliveryIds[i]!,
          event_type: envelope.event_type,
          next_retry_at: now,
          delivered_at: null,
          developer_id: developerId,
          event_id: envelope.event_id,
          payload,
          created_at: now,
        };
      }),
    );
  }
  await countNewLogs(
    trx,
    events.map(({ type }) => ({ developer_id: developerId, event_type: type })),
  );
  return envelopes;
}

const insertEvents = prepareInsertSeqs('events', [
  'id',
  'developer_seq',
  'type_code',
  'payload',
  'transaction_seq',
  'created_at_ms',
]);

const insertDeliveries = prepareInsertSeqs('webhook_logs', [
  'id',
  'developer_seq',
  'event_seq',
  'event_type_code',
  'status',
  'http_status_code',
  'response_body',
  'attempt_count',
  'next_retry_at_ms',
  'delivered_at_ms',
]);

/** `ledger.credit` / `ledger.debit` for a wallet transaction: at least wallet_id, amount, transaction_id and balance_after (decisions: Webhooks). */
export async function emitLedgerEvent(trx: Trx, env: EngineEnv, tx: TransactionRow): Promise<EventEnvelope> {
  return (await emitLedgerEvents(trx, env, [tx]))[0]!;
}

/**
 * The ledger events of several transactions of one developer (both legs of a transfer), in one go.
 * A SETTLED transaction never changes, so its event's payload is built from it when needed instead
 * of stored; a PENDING one (a payout's debit) may still change status, so its event keeps the
 * payload as it was.
 */
export async function emitLedgerEvents(trx: Trx, env: EngineEnv, txs: TransactionRow[]): Promise<EventEnvelope[]> {
  return emitEvents(
    trx,
    env,
    txs[0]!.developer_id,
    txs.map((tx) => ({
      type: tx.type === 'CREDIT' ? 'ledger.credit' : 'ledger.debit',
      data: ledgerEventData(tx),
      ...(tx.status === 'SETTLED' ? { transactionSeq: tx.seq } : {}),
    })),
  );
}
