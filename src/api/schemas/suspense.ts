import { z } from 'zod';
import { Kobo, Timestamp } from './common.js';
import { ServiceIntelligence } from './transactions.js';

export const SuspenseItem = z
  .object({
    id: z.string(),
    developer_id: z.string(),
    account_number: z.string(),
    wallet_id: z.string().nullable(),
    amount: Kobo,
    sender_name: z.string(),
    sender_account: z.string(),
    sender_bank_code: z.string(),
    raw_narration: z.string(),
    provider_reference: z.string(),
    reason: z.enum(['WALLET_CLOSED', 'AI_LOW_CONFIDENCE', 'AI_RISK_FLAG']),
    status: z.enum(['PENDING', 'RESOLVED', 'FLAGGED']),
    raw_payload: z.record(z.string(), z.unknown()),
    service_intelligence: ServiceIntelligence.nullable(),
    resolved_at: Timestamp.nullable(),
    resolution_note: z.string().nullable(),
    resolution_action: z.enum(['CREDIT_WALLET', 'DISMISS', 'REFUND']).nullable(),
    resolution_transaction_id: z.string().nullable().describe('the wallet CREDIT of a CREDIT_WALLET resolution'),
    created_at: Timestamp,
  })
  .meta({ id: 'SuspenseItem' });
export type SuspenseItem = z.infer<typeof SuspenseItem>;

export const SuspenseNote = z
  .object({
    note: z.string(),
    kind: z
      .enum(['FLAG', 'NOTE'])
      .describe('FLAG: the note that escalated the item to FLAGGED; NOTE: a remark that changed nothing'),
    created_at: Timestamp,
    author: z
      .object({ developer_id: z.string(), business_name: z.string() })
      .describe('the developer whose key wrote it'),
  })
  .meta({ id: 'SuspenseNote' });

/** A suspense item with its notes, oldest first (this service's extension: the seed's item has none). */
export const SuspenseItemWithNotes = SuspenseItem.extend({ notes: z.array(SuspenseNote) }).meta({
  id: 'SuspenseItemWithNotes',
});
export type SuspenseItemWithNotes = z.infer<typeof SuspenseItemWithNotes>;
