import { API_VERSION } from '../env.js';
import type { TransactionRow } from '../ledger/ledger.service.js';
import { idText, isoTime, type StoredId, typeName } from './stored.js';

// A ledger event of a settled transaction is not stored as JSON: its payload is a function of the
// transaction row (which never changes once SETTLED) and the event's own id, type and time, so it
// is built again, byte for byte, whenever it is sent or shown (migration 0015). Events of anything
// that can still change (a PENDING payout's debit) and every other event type keep their payload.

/** What a ledger event's `data` is made of: columns of its transaction that never change once it is SETTLED. */
export type LedgerEventSource = Pick<
  TransactionRow,
  | 'id'
  | 'wallet_id'
  | 'type'
  | 'amount'
  | 'balance_before'
  | 'balance_after'
  | 'currency'
  | 'status'
  | 'provider_reference'
  | 'sender_name'
  | 'sender_account'
  | 'raw_narration'
  | 'destination_account_number'
  | 'destination_bank_code'
  | 'destination_account_name'
>;

/** `ledger.credit` / `ledger.debit` data for a wallet transaction: at least wallet_id, amount, transaction_id and balance_after (decisions: Webhooks). */
export function ledgerEventData(tx: LedgerEventSource): Record<string, unknown> {
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

/** The event envelope (decisions: Webhooks) as it is sent: the bytes a signature covers. */
export function envelopeJson(eventId: string, type: string, createdAt: string, data: Record<string, unknown>): string {
  return JSON.stringify({ event_id: eventId, event_type: type, api_version: API_VERSION, created_at: createdAt, data });
}

/**
 * The columns a query selects, beside `events.payload`, to build a payload that is not stored: the
 * event's id, type and time, its transaction joined as `announced` (`events.transaction_seq` = its seq),
 * and that transaction's wallet account as `announced_account` (its id is the wallet's, migration 0019a).
 * @example trx.selectFrom('events').leftJoin('transactions as announced', 'announced.seq', 'events.transaction_seq')
 *   .leftJoin('accounts as announced_account', 'announced_account.seq', 'announced.account_seq').select(ANNOUNCED).select('events.payload')
 */
export const ANNOUNCED = [
  'events.id as announced_event_id',
  'events.type_code as announced_event_type',
  'events.created_at_ms as announced_at',
  'announced.id as announced_id',
  'announced_account.id as announced_wallet_id',
  'announced.type as announced_type',
  'announced.amount as announced_amount',
  'announced.balance_before as announced_balance_before',
  'announced.balance_after as announced_balance_after',
  'announced.currency as announced_currency',
  'announced.status as announced_status',
  'announced.provider_reference as announced_provider_reference',
  'announced.sender_name as announced_sender_name',
  'announced.sender_account as announced_sender_account',
  'announced.raw_narration as announced_raw_narration',
  'announced.destination_account_number as announced_destination_account_number',
  'announced.destination_bank_code as announced_destination_bank_code',
  'announced.destination_account_name as announced_destination_account_name',
] as const;

/** A row with the ANNOUNCED columns (null when the event has no transaction). */
export type Announced = { [K in keyof LedgerEventSource as `announced_${K}`]: LedgerEventSource[K] | null } & {
  announced_event_id: StoredId | null;
  /** Stored as events/stored.ts says: the type's code, the time in epoch ms. */
  announced_event_type: number | null;
  announced_at: number | null;
};

/**
 * An event's payload: the stored one, or, when none is stored (''), the one built from its
 * transaction. Takes a row a query selected (ANNOUNCED beside `events.payload`) and gives it back
 * with `payload` filled in and the ANNOUNCED columns left out.
 */
export function withEventPayload<R extends Announced & { payload: string | null }>(row: R): Omit<R, keyof Announced> {
  const out: Record<string, unknown> = {};
  const source: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('announced_')) source[key.slice('announced_'.length)] = value;
    else out[key] = value;
  }
  if (row.payload === '') {
    if (
      row.announced_id === null ||
      row.announced_event_id === null ||
      row.announced_event_type === null ||
      row.announced_at === null
    )
      throw new Error(`event ${row.announced_event_id} has neither a payload nor a transaction`);
    out.payload = envelopeJson(
      idText(row.announced_event_id),
      typeName(row.announced_event_type),
      isoTime(row.announced_at),
      ledgerEventData(source as unknown as LedgerEventSource),
    );
  }
  return out as Omit<R, keyof Announced>;
}
