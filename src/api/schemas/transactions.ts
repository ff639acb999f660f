import { z } from 'zod';
import {
  AccountNumber,
  Amount,
  BankCode,
  Kobo,
  Ok,
  Page,
  Timestamp,
  extension,
  optionalText,
  pageQuery,
} from './common.js';
import { checkRanges, paymentFilters, statusList, timeFilters, walletFilters } from './filters.js';

export const ServiceIntelligence = z
  .object({
    raw_narration: z.string(),
    extracted_intent: z.string(),
    confidence_score: z.number().min(0).max(1),
    flags: z.array(z.string()),
    suggested_label: z.string(),
    explanation: z.array(z.string()).describe('the rules that produced this analysis, in order (an addition)'),
  })
  .meta({ id: 'ServiceIntelligence' });

export const Transaction = z
  .object({
    id: z.string(),
    wallet_id: z.string(),
    developer_id: z.string(),
    type: z.enum(['CREDIT', 'DEBIT']),
    amount: Kobo,
    balance_before: Kobo,
    balance_after: Kobo,
    currency: z.literal('NGN'),
    status: z.enum(['SETTLED', 'PENDING', 'FAILED']),
    provider_reference: z.string(),
    sender_name: z.string(),
    sender_account: z.string(),
    raw_narration: z.string(),
    service_intelligence: ServiceIntelligence.nullable(),
    destination_account_number: z.string().nullable(),
    destination_bank_code: z.string().nullable(),
    destination_account_name: z.string().nullable(),
    fee: Kobo.nullable(),
    agent_id: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof Transaction>;

export const TransactionParams = z.object({ tx_id: z.string() });

const transactionFilters = {
  ...pageQuery,
  type: extension(z.enum(['CREDIT', 'DEBIT']).optional()),
  status: extension(statusList(['SETTLED', 'PENDING', 'FAILED'])),
  ...timeFilters,
  ...paymentFilters,
};

/** One wallet's transactions: the wallet is the path's, so the wallet filters are not taken. */
export const TransactionListQuery = z.strictObject(transactionFilters).superRefine(checkRanges);

/** Every wallet's transactions (`GET /v1/transactions`), or one wallet's by its id or customer reference. */
export const AllTransactionsQuery = z
  .strictObject({ ...transactionFilters, ...walletFilters })
  .superRefine(checkRanges);

export const TransferBody = z.strictObject({
  destination_account_number: AccountNumber,
  destination_bank_code: BankCode.optional(),
  destination_account_name: optionalText(100),
  amount: Amount,
  narration: optionalText(100),
});
export type TransferBody = z.infer<typeof TransferBody>;

export const TransferResult = z
  .object({
    status: z
      .enum(['SUCCESS', 'PENDING', 'FAILED'])
      .describe('SUCCESS: settled; PENDING: the provider has not acted yet; FAILED: rejected and already reversed'),
    transaction_id: z.string(),
    provider_reference: z.string(),
    new_balance: Kobo,
    currency: z.literal('NGN'),
    fee: Kobo,
  })
  .meta({ id: 'TransferResult' });
export type TransferResult = z.infer<typeof TransferResult>;

export const TransactionResponse = Ok(Transaction);
export const TransactionPageResponse = Ok(Page(Transaction));
export const TransferResponse = Ok(TransferResult);
