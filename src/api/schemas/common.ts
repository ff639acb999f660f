import { z } from 'zod';
import { KEY_LENGTH_RULE, KEY_MAX_LENGTH, KEY_MIN_LENGTH } from '../../engine/idempotency/key.js';
import { ERROR_CODES } from '../errors.js';

// A value outside a list (`order`, `type`, `status`, `action`...) is named with the list, as the
// command line names it ("must be one of asc, desc"), where a schema gives no message of its own
// (zod's own is "Invalid option: expected one of "asc"|"desc"").
z.config({
  customError: (issue) =>
    issue.code === 'invalid_value' && issue.values.length > 0
      ? `must be one of ${issue.values.map(String).join(', ')}`
      : undefined,
});

export const MAX_AMOUNT = 10_000_000_000_000;

const amountMessage = 'must be an integer number of kobo (a JSON number, not a string or a fraction)';

/**
 * The message of a failed integer check on kobo: an integer past 2^53 (which JSON numbers cannot
 * carry exactly, so zod's safe-integer check refuses it) is too large, as the command line says, not
 * a fraction or a string.
 */
export const koboIntegerError = (message: string) => (issue: { input?: unknown }) =>
  Number.isInteger(issue.input) ? `must be at most ${MAX_AMOUNT} kobo` : message;

/** Kobo as a JSON integer, 1 to 10,000,000,000,000 (decisions: Money and balances). */
export const Amount = z
  .number({ error: amountMessage })
  .int({ error: koboIntegerError(amountMessage) })
  .min(1, { error: 'must be at least 1 kobo' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} kobo` })
  .describe('kobo (integer); 500000 is ₦5,000.00');

export const Kobo = z.int().describe('kobo (integer)');

/** Required text, trimmed, 1..max characters. */
export const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

/**
 * A person's or business's name, as it goes into a wallet's `account_name`: required text with no
 * control characters (C0, DEL, C1) and no bidirectional formatting characters (marks, embeddings,
 * overrides, isolates), which reorder what a name appears to say. An account name is what a name
 * enquiry answers to other banks and other developers, so it holds only what a bank would print.
 */
export const nameText = (max: number) =>
  // One pattern (two would be an allOf in JSON Schema, which the command line's rules do not read).
  // A right-to-left override makes "ADA OBI" of the bytes "IBO ADA" in another developer's name enquiry.
  text(max).regex(/^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/, {
    error:
      'must not contain control characters (tabs, line breaks, escape sequences) or bidirectional formatting characters',
  });

/** Optional text of at most `max` characters (may be empty). */
export const optionalText = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: `must be at most ${max} characters` })
    .optional();

export const Timestamp = z.string().describe('ISO 8601 UTC with milliseconds, on the sandbox clock');
export const AccountNumber = z
  .string({ error: 'must be a string of 10 digits' })
  .regex(/^\d{10}$/, { error: 'must be exactly 10 digits' });
export const BankCode = z
  .string({ error: 'must be a string' })
  .regex(/^\d{3,6}$/, { error: 'must be a bank code of 3 to 6 digits' });

export const Ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.int(), page: z.int(), limit: z.int() });

/**
 * A whole number of at least 1 in a query string: declared as an integer (so a typed client passes
 * a number), read from the digits of the string; anything else is refused, never coerced.
 */
export const positiveInt = (max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(max, { error: max === Number.MAX_SAFE_INTEGER ? 'must be a whole number' : `must be at most ${max}` }),
  );

/**
 * Marks a query parameter as an extension of this service, one the seed interface does not have:
 * `x-ledger-extension: true` on its parameter in /openapi.json (`describeErrorResponses` moves it from
 * the schema to the parameter), so a client reads exactly which of a list's parameters another server may lack.
 */
export const EXTENSION_PARAMETER = 'x-ledger-extension';
export const extension = <T extends z.ZodType>(schema: T): T => schema.meta({ [EXTENSION_PARAMETER]: true }) as T;

/** page, limit and order, shared by every list (decisions: Requests and validation); the order is this service's. */
export const pageQuery = {
  page: positiveInt().default(1).describe('page number, from 1 (default 1)'),
  limit: positiveInt(100).default(20).describe('items per page, 1 to 100 (default 20)'),
  order: extension(z.enum(['asc', 'desc']).default('asc')),
};

/** The query of a route that takes no parameters: any parameter is refused by name (decisions: Requests and validation). */
export const NoQuery = z.strictObject({});

/** The body of a write that takes none: no body or `{}`; any field is refused by name (decisions: Requests and validation). */
export const NoBody = z.strictObject({}).optional();

/** Marks a body the request may leave out, for the OpenAPI document (see `describeErrorResponses`). */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * A body the request may leave out, of fields that are each optional: declared optional in the
 * OpenAPI document, as NoBody is.
 * @example body: optionalBody(z.strictObject({ force: z.boolean().optional() }))
 */
export const optionalBody = <T extends z.ZodObject>(schema: T) => schema.meta({ [OPTIONAL_BODY]: true }).optional();

export const ErrorBody = z
  .object({
    success: z.literal(false),
    detail: z.object({
      code: z.enum(ERROR_CODES as [string, ...string[]]),
      message: z.string(),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      request_id: z
        .string()
        .describe(
          "the id of the request this answers, as its request-id header gives it; an idempotent replay keeps the first request's",
        ),
    }),
  })
  .meta({ id: 'Error' });

export const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .min(KEY_MIN_LENGTH, { error: KEY_LENGTH_RULE })
    .max(KEY_MAX_LENGTH, { error: KEY_LENGTH_RULE })
    .optional()
    .describe('Replays the first response for 24 h instead of repeating the effect'),
});
