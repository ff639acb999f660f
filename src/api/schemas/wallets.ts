import { z } from 'zod';
import { Kobo, Ok, Page, Timestamp, nameText, optionalText, pageQuery, text } from './common.js';

export const Wallet = z
  .object({
    id: z.string(),
    developer_id: z.string(),
    customer_reference: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    label: z.string(),
    account_number: z.string(),
    bank_name: z.string(),
    account_name: z.string(),
    balance: Kobo,
    currency: z.literal('NGN'),
    status: z.enum(['ACTIVE', 'CLOSED']),
    system_prompt: z.string(),
    allow_transfers_out: z.boolean(),
    sub_account_id: z.string().nullable(),
    created_at: Timestamp,
    closed_at: Timestamp.nullable(),
  })
  .meta({ id: 'Wallet' });
export type Wallet = z.infer<typeof Wallet>;

export const CreateWalletBody = z.strictObject({
  customer_reference: text(100),
  first_name: nameText(100),
  last_name: nameText(100),
  email: z.email({ error: 'must be a valid email address' }).max(254, { error: 'must be at most 254 characters' }),
  label: optionalText(100),
  currency: z.string({ error: 'must be a string' }).optional(),
  system_prompt: optionalText(2000),
  allow_transfers_out: z.boolean({ error: 'must be true or false' }).optional(),
  sub_account_id: text(100).optional(),
});
export type CreateWalletBody = z.infer<typeof CreateWalletBody>;

export const WalletParams = z.object({ wallet_id: z.string() });

export const WalletListQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(['ACTIVE', 'CLOSED']).optional(),
  customer_reference: z.string().optional(),
});

export const PatchWalletBody = z.strictObject({
  allow_transfers_out: z.boolean({ error: 'must be true or false' }),
});

export const WalletResponse = Ok(Wallet);
export const WalletPageResponse = Ok(Page(Wallet));
