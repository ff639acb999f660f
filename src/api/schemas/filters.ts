import { z } from 'zod';
import { INSTANT_PATTERN, parseInstant } from '../instant.js';
import { extension, MAX_AMOUNT } from './common.js';

// The list filters support staff search by (decisions: Requests and validation). The seed leaves
// filter names open: each is an addition of this service, and says so in the OpenAPI document.
const ADDITION = 'an addition of this service';

const instant = (what: string) =>
  extension(
    z
      .string({ error: 'must be an ISO 8601 time' })
      .regex(new RegExp(INSTANT_PATTERN), {
        error: 'must be an ISO 8601 time with a time zone, such as 2026-01-02T09:30:00Z',
      })
      .refine((text) => parseInstant(text) !== undefined, { error: 'is not a real date and time' })
      .optional()
      .describe(`${what}, on the caller's clock (${ADDITION})`),
  );

/** Kobo in a query string: digits only, 0 to the largest amount; a fraction, a sign or a naira figure is refused, never coerced. */
const koboBound = (what: string) =>
  extension(
    z
      .preprocess(
        (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
        z
          .int({ error: 'must be a whole number of kobo, digits only' })
          .min(0, { error: 'must be a whole number of kobo, digits only' })
          .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} kobo` }),
      )
      .optional()
      .describe(`${what} (kobo; ${ADDITION})`),
  );

const searchText = (what: string) =>
  extension(
    z
      .string({ error: 'must be text' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(100, { error: 'must be at most 100 characters' })
      .optional()
      .describe(`${what} (${ADDITION})`),
  );

/**
 * One or more of a list's statuses, separated by commas (`PENDING,FLAGGED`): a pattern, so the
 * document and the command line's rules carry it as it is; the list is split where it is read.
 */
export const statusList = (values: readonly string[]) => {
  const one = `(${values.join('|')})`;
  return z
    .string({ error: 'must be text' })
    .regex(new RegExp(`^${one}(,${one})*$`), {
      error: `must be one or more of ${values.join(', ')}, separated by commas`,
    })
    .optional()
    .describe(
      `one status or several separated by commas, such as ${values.slice(0, 2).join(',')} (several: ${ADDITION})`,
    );
};

/** The time filters: `since` and `until`, both inclusive. */
export const timeFilters = {
  since: instant('only items created at or after this time'),
  until: instant('only items created at or before this time'),
};

/** The filters on what a payment carries: its amount, its sender and its provider reference. */
export const paymentFilters = {
  amount_min: koboBound('only items of at least this amount'),
  amount_max: koboBound('only items of at most this amount'),
  sender: searchText("only items whose sender's name contains this text, in any case"),
  provider_reference: searchText('only items with this provider reference (NIP session id)'),
};

/** The filters naming one wallet, by its id or its customer's reference; one of another developer matches nothing. */
export const walletFilters = {
  wallet_id: searchText("only items of this wallet (another developer's matches nothing)"),
  customer_reference: searchText('only items of the wallet with this customer reference'),
};

/** Refuses a range that is empty by construction: `since` after `until`, `amount_min` above `amount_max`. */
export function checkRanges(
  query: {
    since?: string | undefined;
    until?: string | undefined;
    amount_min?: number | undefined;
    amount_max?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const since = query.since === undefined ? undefined : parseInstant(query.since);
  const until = query.until === undefined ? undefined : parseInstant(query.until);
  if (since !== undefined && until !== undefined && since > until)
    ctx.addIssue({ code: 'custom', path: ['since'], message: `must not be after until (${query.until})` });
  if (query.amount_min !== undefined && query.amount_max !== undefined && query.amount_min > query.amount_max) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount_min'],
      message: `must not be more than amount_max (${query.amount_max})`,
    });
  }
}
