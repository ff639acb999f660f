import { z } from 'zod';
import { MATCH_SCOPES, SEARCH_KINDS } from '../../engine/search/kinds.js';
import { Ok, Timestamp, positiveInt } from './common.js';

/** Shorter texts match too much to be worth a search (and an id needs 4 hex digits: MIN_ID_HEX). */
export const MIN_QUERY = 3;

export const SearchQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .min(MIN_QUERY, { error: `must be at least ${MIN_QUERY} characters (an id needs at least 4 hex digits)` })
    .max(200, { error: 'must be at most 200 characters' })
    .meta({ examples: ['ada'] })
    .describe(
      'an id or its start (4+ hex digits, dashes optional) or the start of its last 12 hex digits; ' +
        'a provider reference (whole, or its first 6+ characters); a 10-digit account number; ' +
        'words of a customer reference, customer or sender name, or narration',
    ),
  kind: z.enum(SEARCH_KINDS).optional().describe('only this kind of record'),
  match: z
    .enum(MATCH_SCOPES)
    .default('any')
    .describe(
      '`id`: only ids, provider references and account numbers (what resolves one record); `any` (default): names and narrations too',
    ),
  limit: positiveInt(100).default(10).describe('at most this many records of each kind, 1 to 100 (default 10)'),
});

const base = { id: z.string(), matched: z.string().describe('the field that matched'), created_at: Timestamp };
const customer_name = z.string().nullable().describe("the wallet's customer, first and last name");

export const SearchMatch = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('wallet'),
      ...base,
      customer_name,
      customer_reference: z.string(),
      account_number: z.string(),
      balance: z.int(),
      status: z.string(),
    }),
    z.object({
      kind: z.literal('transaction'),
      ...base,
      type: z.string(),
      amount: z.int(),
      status: z.string(),
      wallet_id: z.string(),
      customer_name,
      sender_name: z.string(),
      raw_narration: z.string(),
      provider_reference: z.string(),
    }),
    z.object({
      kind: z.literal('suspense_item'),
      ...base,
      amount: z.int(),
      reason: z.string(),
      status: z.string(),
      sender_name: z.string(),
      raw_narration: z.string(),
      provider_reference: z.string(),
      account_number: z.string(),
      wallet_id: z.string().nullable(),
      customer_name,
    }),
    z.object({
      kind: z.literal('webhook_log'),
      ...base,
      event_type: z.string(),
      status: z.string(),
      attempt_count: z.int(),
      event_id: z.string(),
      transaction_id: z.string().nullable(),
      wallet_id: z.string().nullable(),
    }),
    z.object({
      kind: z.literal('agent'),
      ...base,
      name: z.string(),
      wallet_id: z.string(),
      trigger: z.string(),
      action: z.string(),
      is_active: z.boolean(),
    }),
  ])
  .meta({ id: 'SearchMatch' });
export type SearchMatch = z.infer<typeof SearchMatch>;

export const SearchResult = z
  .object({
    items: z
      .array(SearchMatch)
      .describe('grouped by kind (wallet, transaction, suspense_item, webhook_log, agent), newest first within each'),
    more: z.array(z.enum(SEARCH_KINDS)).describe('the kinds with more matches than `limit`'),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResponse = Ok(SearchResult);
