export type IdempotencyState = 'IN_FLIGHT' | 'DONE';

export interface IdempotencyKeyTable {
  developer_id: string;
  method: string;
  path: string;
  key: string;
  request_hash: string;
  state: IdempotencyState;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
}
