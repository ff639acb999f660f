export type WalletStatus = 'ACTIVE' | 'CLOSED';

import type { Generated } from 'kysely';

export interface WalletTable {
  seq: Generated<number>;
  id: string;
  developer_id: string;
  customer_reference: string;
  first_name: string;
  last_name: string;
  email: string;
  label: string;
  account_number: string;
  bank_code: string;
  bank_name: string;
  account_name: string;
  currency: string;
  status: WalletStatus;
  system_prompt: string;
  allow_transfers_out: number;
  sub_account_id: string | null;
  created_at: string;
  closed_at: string | null;
}
