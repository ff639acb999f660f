/** What the simulated provider does with a payout (decisions: Transfers and payouts). */
export type PayoutPlan = 'SETTLE' | 'FAIL' | 'HOLD';

export interface MagicAccount {
  account_number: string;
  account_name: string | null;
  name_enquiry: string;
  payout: string;
  plan: PayoutPlan | null;
}

/** Account numbers that behave the same at every listed bank, for scripting each payout path. */
export const MAGIC_ACCOUNTS: readonly MagicAccount[] = [
  {
    account_number: '0000000000',
    account_name: null,
    name_enquiry: 'fails with ACCOUNT_NOT_FOUND',
    payout: 'rejected with 422 ACCOUNT_NOT_FOUND; nothing moves',
    plan: null,
  },
  {
    account_number: '1111111111',
    account_name: 'SANDBOX FAILED PAYOUT',
    name_enquiry: 'SANDBOX FAILED PAYOUT',
    payout:
      'accepted PENDING, then FAILED after the settlement delay and reversed (amount + fee), event transfer.failed',
    plan: 'FAIL',
  },
  {
    account_number: '2222222222',
    account_name: 'SANDBOX PENDING PAYOUT',
    name_enquiry: 'SANDBOX PENDING PAYOUT',
    payout: 'stays PENDING until POST /sandbox/payouts/:transaction_id/settle or /fail',
    plan: 'HOLD',
  },
];

/** The rules for every other number, listed after the magic ones. */
export const ORDINARY_ACCOUNTS = [
  {
    account_number: 'any other with a valid NUBAN check digit for the bank',
    name_enquiry:
      'a deterministic Nigerian name derived from bank and number (a sandbox virtual account: its wallet’s account_name)',
    payout:
      'settles after the settlement delay, event transfer.completed; to another developer’s virtual account it arrives as an inbound transfer',
  },
  {
    account_number: 'any other',
    name_enquiry: 'fails with ACCOUNT_NOT_FOUND',
    payout: 'rejected with 422 ACCOUNT_NOT_FOUND',
  },
] as const;

export function magicAccount(accountNumber: string): MagicAccount | undefined {
  return MAGIC_ACCOUNTS.find((m) => m.account_number === accountNumber);
}
