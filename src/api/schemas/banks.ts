import { z } from 'zod';
import { AccountNumber, Kobo, Ok, Timestamp } from './common.js';

export const Bank = z.object({ code: z.string(), name: z.string() }).meta({ id: 'Bank' });
export type Bank = z.infer<typeof Bank>;

export const BankList = Ok(z.object({ items: z.array(Bank) }));

export const ResolveBody = z.strictObject({
  account_number: AccountNumber,
  bank_code: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
});

export const ResolvedAccount = z
  .object({ account_number: z.string(), account_name: z.string() })
  .meta({ id: 'ResolvedAccount' });
export type ResolvedAccount = z.infer<typeof ResolvedAccount>;

export const MagicAccount = z
  .object({ account_number: z.string(), name_enquiry: z.string(), payout: z.string() })
  .meta({ id: 'MagicAccount' });
export type MagicAccount = z.infer<typeof MagicAccount>;

export const MagicList = Ok(z.object({ items: z.array(MagicAccount) }));

export const PayoutParams = z.object({ transaction_id: z.string() });

export const TransactionIdParams = z.object({ tx_id: z.string() });

/** An external transfer as the simulated provider holds it, with the transactions it is made of. */
export const Payout = z
  .object({
    transaction_id: z.string().describe('the payout DEBIT'),
    fee_transaction_id: z.string().describe('the NIP fee DEBIT'),
    reversal_transaction_id: z
      .string()
      .nullable()
      .describe('the CREDIT that gave amount + fee back, once the payout FAILED'),
    wallet_id: z.string(),
    status: z.enum(['PENDING', 'SETTLED', 'FAILED']),
    amount: Kobo,
    fee: Kobo,
    destination_account_number: z.string(),
    destination_bank_code: z.string(),
    destination_account_name: z.string(),
    provider_reference: z.string(),
    due_at: Timestamp.nullable().describe(
      'when the provider acts, on the sandbox clock; null while held until settled or failed by hand',
    ),
    resolved_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'Payout' });
export type Payout = z.infer<typeof Payout>;
