import type { Generated } from 'kysely';

/**
 * A public id as stored (migration 0020b): an id in the canonical form the sandbox gives (a UUID in
 * lowercase hex) as its 16 bytes, any other id (one from an older database) as it is. The two never
 * compare equal, and each reads back as the text it was, so a look-up by id finds what it found before.
 */
export type StoredId = Buffer | string;

/** Stored as events/stored.ts says: the developer by its seq, the type by its code, the time in epoch ms. */
export interface EventTable {
  seq: Generated<number>;
  id: StoredId;
  developer_seq: number;
  type_code: number;
  /** The event envelope (decisions: Webhooks) as JSON; '' when it is built from the SETTLED transaction at transaction_seq (ledger-payload.ts). */
  payload: string;
  /** A ledger event's transaction (its seq), when the payload is built from it; otherwise null. */
  transaction_seq: number | null;
  created_at_ms: number;
}

export type WebhookLogStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'DEAD';

/**
 * One delivery of one event (by the event's seq); the event's id, the payload it sends and its time
 * of creation are the event's (events.id, events.payload, events.created_at_ms). Stored as events/stored.ts says.
 */
export interface WebhookLogTable {
  seq: Generated<number>;
  id: StoredId;
  developer_seq: number;
  event_seq: number;
  event_type_code: number;
  status: WebhookLogStatus;
  http_status_code: number | null;
  response_body: string | null;
  attempt_count: number;
  next_retry_at_ms: number | null;
  delivered_at_ms: number | null;
}

/** One HTTP attempt to deliver a webhook log (by the log's seq), to a URL kept once in webhook_urls. */
export interface WebhookAttemptTable {
  seq: Generated<number>;
  id: StoredId;
  log_seq: number;
  attempt_number: number;
  manual: number;
  url_seq: number;
  http_status_code: number | null;
  response_body: string | null;
  /** Why there is no status code: timeout, connection refused, redirect… */
  error: string | null;
  duration_ms: number;
  created_at_ms: number;
}

/** Every URL an attempt was sent to, once (an attempt names it by seq). Not developer data: reset keeps it, as it keeps the endpoint. */
export interface WebhookUrlTable {
  seq: Generated<number>;
  url: string;
}

/** What the built-in receiver got. */
export interface ReceiverEventTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  webhook_id: string | null;
  event_type: string | null;
  headers: string;
  /** What was received; null when it is exactly the payload of the event named by webhook_id. */
  body: string | null;
  signature_valid: number;
  response_status: number;
  created_at: string;
}

/** How many logs a developer has in each status and event type (list totals without counting). */
export interface WebhookLogCountTable {
  developer_id: string;
  status: WebhookLogStatus;
  event_type: string;
  n: number;
}

/** How many deliveries the built-in receiver kept for each developer. */
export interface ReceiverEventCountTable {
  developer_id: string;
  n: number;
}
