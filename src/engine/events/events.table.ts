import type { Generated } from 'kysely';

export interface EventTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  type: string;
  /** The §7 envelope as JSON. */
  payload: string;
  created_at: string;
}

export type WebhookLogStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'DEAD';

export interface WebhookLogTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: WebhookLogStatus;
  http_status_code: number | null;
  response_body: string | null;
  attempt_count: number;
  next_retry_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** One HTTP attempt to deliver a webhook log. */
export interface WebhookAttemptTable {
  seq: Generated<number>;
  id: string;
  log_id: string;
  attempt_number: number;
  manual: number;
  url: string;
  http_status_code: number | null;
  response_body: string | null;
  /** Why there is no status code: timeout, connection refused, redirect… */
  error: string | null;
  duration_ms: number;
  created_at: string;
}

/** What the built-in receiver got. */
export interface ReceiverEventTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  webhook_id: string | null;
  event_type: string | null;
  headers: string;
  body: string;
  signature_valid: number;
  response_status: number;
  created_at: string;
}
