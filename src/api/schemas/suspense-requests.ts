import { z } from 'zod';
import { Ok, Page, nameText, optionalText, pageQuery } from './common.js';
import { checkRanges, paymentFilters, statusList, timeFilters, walletFilters } from './filters.js';
import { SuspenseItem, SuspenseItemWithNotes } from './suspense.js';

export const SuspenseParams = z.object({ suspense_id: z.string() });

export const SuspenseListQuery = z
  .strictObject({
    ...pageQuery,
    status: statusList(['PENDING', 'RESOLVED', 'FLAGGED']),
    reason: z.enum(['WALLET_CLOSED', 'AI_LOW_CONFIDENCE', 'AI_RISK_FLAG']).optional(),
    ...timeFilters,
    ...paymentFilters,
    ...walletFilters,
  })
  .superRefine(checkRanges);

export const ResolveSuspenseBody = z
  .strictObject({
    action: z.enum(['CREDIT_WALLET', 'DISMISS', 'REFUND'], { error: 'must be CREDIT_WALLET, DISMISS or REFUND' }),
    target_wallet_id: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
    note: optionalText(500),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'CREDIT_WALLET' && body.target_wallet_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['target_wallet_id'], message: 'is required for CREDIT_WALLET' });
    }
    if (body.action !== 'CREDIT_WALLET' && body.target_wallet_id !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['target_wallet_id'],
        message: `is only used with CREDIT_WALLET, not ${body.action}`,
      });
    }
  });

export const Resolution = z
  .object({
    message: z.string(),
    action: z.enum(['CREDIT_WALLET', 'DISMISS', 'REFUND']),
    transaction_id: z.string().optional(),
    provider_reference: z.string().optional(),
  })
  .meta({ id: 'SuspenseResolution' });

/**
 * The note of a flag or a plain note: one line a terminal prints as written, as names are (no
 * control or bidirectional formatting characters), at most 500 characters like a resolution note.
 */
export const SuspenseNoteBody = z.strictObject({ note: nameText(500) });

export const SuspenseResponse = Ok(SuspenseItemWithNotes);
export const SuspensePageResponse = Ok(Page(SuspenseItem));
