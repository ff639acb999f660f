import type { Generated } from 'kysely';

export type AccountKind = 'WALLET' | 'PROVIDER_SETTLEMENT' | 'SUSPENSE_HOLDING' | 'FEE_INCOME' | 'DISMISSED';

/** One ledger account: a wallet or one of a developer's system accounts (decisions: Money and balances). */
export interface AccountTable {
  /** Its integer key (migration 0019a), which entries and transactions point at. */
  seq: Generated<number>;
  id: string;
  developer_id: string;
  kind: AccountKind;
  /** Signed kobo. Wallets stay within 0..2^53 − 1 (`floor_zero` = 1); system accounts within ±(2^63 − 2^53) (see MAX_SYSTEM_BALANCE_SQL). */
  balance: number;
  floor_zero: number;
  created_at: string;
}

/** One balanced movement of money. Internal: keyed by its seq alone (migration 0016a). */
export interface PostingTable {
  seq: Generated<number>;
  developer_id: string;
  kind: string;
  /** Milliseconds since the epoch (migration 0019b). */
  created_at: number;
}

/** One leg of a posting. The legs of a posting sum to zero. Its time is the posting's. */
export interface EntryTable {
  seq: Generated<number>;
  posting_seq: number;
  account_seq: number;
  amount: number;
}

export type TransactionType = 'CREDIT' | 'DEBIT';
export type TransactionStatus = 'SETTLED' | 'PENDING' | 'FAILED';

/**
 * The wallet-facing view of an entry, as stored: what the transaction endpoints return, less the
 * wallet's id and developer, read through the wallet's account (`account_seq`, migration 0019a).
 */
export interface TransactionTable {
  seq: Generated<number>;
  id: string;
  /** The wallet's account (accounts.seq; the account's id is the wallet's). */
  account_seq: number;
  posting_seq: number;
  entry_seq: number;
  type: TransactionType;
  amount: number;
  balance_before: number;
  balance_after: number;
  currency: string;
  status: TransactionStatus;
  provider_reference: string;
  sender_name: string;
  sender_account: string;
  raw_narration: string;
  service_intelligence: string | null;
  destination_account_number: string | null;
  destination_bank_code: string | null;
  destination_account_name: string | null;
  fee: number | null;
  agent_id: string | null;
  /** Milliseconds since the epoch (migration 0019b), shown as ISO text. */
  created_at: number;
  /** NULL until the transaction changes (migration 0016c): it reads as created_at. Milliseconds, as created_at. */
  updated_at: number | null;
}

/** How many transactions of each type a wallet has: list totals without counting rows. */
export interface TransactionCountTable {
  wallet_id: string;
  type: TransactionType;
  n: number;
}
