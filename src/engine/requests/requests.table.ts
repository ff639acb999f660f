/**
 * One API request of a developer, as the request log keeps it (decisions: Request log). `number` is
 * the developer's own request number, the one its request id (`req_…`) spells; rows are never
 * changed, only added and, past the retention, dropped oldest first.
 */
export interface RequestLogTable {
  developer_id: string;
  number: number;
  method: string;
  /** The path with its query string, secrets removed. */
  path: string;
  status: number;
  /** `detail.code` of an error answer; null for a success. */
  code: string | null;
  duration_ms: number;
  idempotency_key: string | null;
  /** 1 when the answer was an idempotent replay. */
  replayed: number;
  source: string;
  /** Epoch milliseconds on the developer's clock when the request arrived. */
  at: number;
  /** Real epoch milliseconds when the request arrived. */
  real_at: number;
  /** A failure's request body with secrets removed; null for a success. */
  request_body: string | null;
}

/** The last request number handed out for each developer: servers take numbers from it in blocks. */
export interface RequestCounterTable {
  developer_id: string;
  last: number;
}
