import { z } from 'zod';
import { parseLocalInstant, TIME_ZONE } from '../instant.js';
import { Ok, Timestamp } from './common.js';

const instant = (name: string) =>
  z
    .string()
    .refine((text) => parseLocalInstant(text) !== undefined, {
      error:
        'must be an ISO 8601 date (2026-11-21, the start of that day in Lagos) or date-time (2026-11-21T09:30:00Z; Lagos time without Z or an offset)',
    })
    .optional()
    .describe(`${name}, on the caller's sandbox clock`);

export const ReportQuery = z
  .strictObject({
    since: instant(`start of the period, inclusive (default: the start of today in ${TIME_ZONE}, UTC+1)`),
    until: instant('end of the period, exclusive (default: now, included)'),
  })
  .refine(
    (q) => q.since === undefined || q.until === undefined || parseLocalInstant(q.until)! > parseLocalInstant(q.since)!,
    {
      path: ['until'],
      error: 'must be later than since',
    },
  );
export type ReportQuery = z.infer<typeof ReportQuery>;

/**
 * Kobo, exact: a JSON integer while it is at most 2^53 − 1 (Number.MAX_SAFE_INTEGER), past that a
 * string of its decimal digits, as JSON numbers cannot carry it exactly. Totals over a developer's
 * system-scale money can pass 2^53; no wallet's balance does.
 */
export const ExactKobo = z
  .union([z.int(), z.string().regex(/^-?\d+$/)])
  .describe('kobo: an integer up to 2^53 − 1 in magnitude, beyond that a string of decimal digits (exact)');

const Total = z.object({ count: z.int(), amount: ExactKobo });

export const Report = z
  .object({
    since: Timestamp,
    until: Timestamp.describe('the end of the period (exclusive), or now (included) when not given'),
    time_zone: z.literal(TIME_ZONE).describe('the zone of the default day and of dates and times given without a zone'),
    transactions: z.array(
      z.object({
        type: z.enum(['CREDIT', 'DEBIT']),
        status: z.enum(['SETTLED', 'PENDING', 'FAILED']),
        count: z.int(),
        amount: ExactKobo,
      }),
    ),
    money_in: Total.describe('inbound transfers credited to wallets (money held in suspense is under suspense)'),
    money_out: z
      .object({
        settled: Total,
        pending: Total,
        failed: Total.describe('payouts the provider failed: reversed, so not out'),
        fees: ExactKobo.describe('NIP fees charged on payouts, less those reversed with a failed payout'),
      })
      .describe('external payouts from wallets'),
    net: ExactKobo.describe('money_in less settled and pending payouts (fees stay with the developer)'),
    suspense: z.object({
      items: z.array(z.object({ status: z.string(), reason: z.string(), count: z.int(), amount: ExactKobo })),
      oldest_waiting: z
        .object({ id: z.string(), status: z.string(), reason: z.string(), created_at: Timestamp, age_seconds: z.int() })
        .nullable()
        .describe("the oldest PENDING or FLAGGED item of the period; its age on the caller's clock"),
    }),
    webhooks: z.object({
      deliveries: z.array(z.object({ status: z.enum(['PENDING', 'DELIVERED', 'FAILED', 'DEAD']), count: z.int() })),
      failing_endpoints: z.array(
        z.object({
          url: z.string(),
          failed_attempts: z.int(),
          failing_deliveries: z.int().describe('deliveries with a failed attempt here that are still FAILED or DEAD'),
          last_error: z.object({
            at: Timestamp,
            http_status_code: z.int().nullable(),
            response_body: z.string().nullable().describe('its first 200 characters'),
            error: z.string().nullable().describe('why no answer came (timeout, refused), first 200 characters'),
          }),
        }),
      ),
    }),
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof Report>;

export const ReportResponse = Ok(Report);
