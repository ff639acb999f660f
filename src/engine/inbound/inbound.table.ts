/** One row per provider_reference: the inbound notification's idempotency record. */
export interface InboundTransferTable {
  developer_id: string;
  provider_reference: string;
  request_hash: string;
  /** The first outcome, as JSON, returned again for a repeat. */
  outcome: string;
  created_at: string;
}
