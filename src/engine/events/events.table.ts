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
