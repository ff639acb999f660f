import { z } from 'zod';
import { AccountNumber, Ok } from './common.js';

export const Bank = z.object({ code: z.string(), name: z.string() }).meta({ id: 'Bank' });
export type Bank = z.infer<typeof Bank>;

export const BankList = Ok(z.object({ items: z.array(Bank) }));

export const ResolveBody = z.strictObject({
  account_number: AccountNumber,
  bank_code: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
});

export const ResolvedAccount = z.object({ account_number: z.string(), account_name: z.string() }).meta({ id: 'ResolvedAccount' });
export type ResolvedAccount = z.infer<typeof ResolvedAccount>;

export const MagicAccount = z
  .object({ account_number: z.string(), name_enquiry: z.string(), payout: z.string() })
  .meta({ id: 'MagicAccount' });
export type MagicAccount = z.infer<typeof MagicAccount>;

export const MagicList = Ok(z.object({ items: z.array(MagicAccount) }));

export const PayoutParams = z.object({ transaction_id: z.string() });
