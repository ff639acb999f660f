import type { Generated } from 'kysely';

export type SuspenseReason = 'WALLET_CLOSED' | 'AI_LOW_CONFIDENCE' | 'AI_RISK_FLAG';
export type SuspenseStatus = 'PENDING' | 'RESOLVED' | 'FLAGGED';

export interface SuspenseItemTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  wallet_id: string | null;
  account_number: string;
  amount: number;
  sender_name: string;
  sender_account: string;
  sender_bank_code: string;
  raw_narration: string;
  provider_reference: string;
  reason: SuspenseReason;
  status: SuspenseStatus;
  raw_payload: string;
  service_intelligence: string | null;
  posting_seq: number;
  resolved_at: string | null;
  resolution_note: string | null;
  resolution_action: SuspenseAction | null;
  /** The wallet CREDIT of a CREDIT_WALLET resolution. */
  resolution_transaction_id: string | null;
  created_at: string;
}

export type SuspenseAction = 'CREDIT_WALLET' | 'DISMISS' | 'REFUND';

/** FLAG: the note that escalated the item (it became FLAGGED); NOTE: a remark that changed nothing. */
export type SuspenseNoteKind = 'FLAG' | 'NOTE';

/** A note on a suspense item, in the order written; it goes with its item (reset, snapshots). */
export interface SuspenseNoteTable {
  seq: Generated<number>;
  suspense_seq: number;
  kind: SuspenseNoteKind;
  note: string;
  author_id: string;
  /** The author's business name as it was when the note was written. */
  author_name: string;
  created_at: string;
}
