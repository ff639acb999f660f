import type { Selectable } from 'kysely';
import type { PayoutPlan } from '../banks/magic.js';

export type PayoutStatus = 'PENDING' | 'SETTLED' | 'FAILED';

/** An external transfer at the simulated provider, from PENDING to SETTLED or FAILED. */
export interface PayoutTable {
  transaction_id: string;
  developer_id: string;
  wallet_id: string;
  fee_transaction_id: string;
  amount: number;
  fee: number;
  destination_account_number: string;
  destination_bank_code: string;
  destination_account_name: string;
  narration: string;
  provider_reference: string;
  plan: PayoutPlan;
  /** When the provider acts, on the sandbox clock; null while held (HOLD). */
  due_at: string | null;
  status: PayoutStatus;
  reversal_transaction_id: string | null;
  resolved_at: string | null;
  created_at: string;
}

/** A payout as read from the database. */
export type PayoutRow = Selectable<PayoutTable>;
