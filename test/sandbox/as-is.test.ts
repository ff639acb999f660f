import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ZodType, safeParse, z } from 'zod';
import * as agents from '../../src/api/schemas/agents.js';
import * as banks from '../../src/api/schemas/banks.js';
import * as common from '../../src/api/schemas/common.js';
import * as sandboxSchemas from '../../src/api/schemas/sandbox.js';
import * as snapshots from '../../src/api/schemas/snapshots.js';
import * as suspenseRequests from '../../src/api/schemas/suspense-requests.js';
import * as suspense from '../../src/api/schemas/suspense.js';
import * as transactions from '../../src/api/schemas/transactions.js';
import * as wallets from '../../src/api/schemas/wallets.js';
import * as webhookStream from '../../src/api/schemas/webhook-stream.js';
import * as webhooks from '../../src/api/schemas/webhooks.js';
import { asIsCheck } from '../../src/sandbox/plugins/as-is.js';

// The validator skips zod's parse for a request part that passes its schema unchanged (as-is.ts).
// Whatever that check accepts, zod must accept too and answer the same value, field for field and
// in the same order: otherwise a route would see another body than before.

const exported: [string, unknown][] = Object.entries({
  ...agents,
  ...banks,
  ...common,
  ...sandboxSchemas,
  ...snapshots,
  ...suspenseRequests,
  ...suspense,
  ...transactions,
  ...wallets,
  ...webhookStream,
  ...webhooks,
});
const schemas = exported.filter(
  (entry): entry is [string, ZodType] => typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1],
);

/** Values near what the API's schemas take: their own fields, digits, bounds, wrong types. */
const field = fc.oneof(
  fc.constantFrom(
    'destination_account_number',
    'destination_bank_code',
    'destination_account_name',
    'amount',
    'narration',
    'account_number',
    'wallet_id',
    'idempotency-key',
    'page',
    'limit',
    'status',
    'email',
    'x',
  ),
  fc.string({ maxLength: 8 }),
);
const leaf = fc.oneof(
  fc.stringMatching(/^\d{0,12}$/),
  fc.string({ maxLength: 120 }),
  fc.constantFrom('', ' ', 'ACTIVE', 'CLOSED', 'NGN', 'SUCCESS', 'asc', 'desc', '0123456789'),
  fc.integer({ min: -5, max: 20 }),
  fc.constantFrom(0, 1, 10_000_000_000_000, 10_000_000_000_001, 2 ** 53, 1.5, -1, Number.MAX_SAFE_INTEGER),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(fc.dictionary(field, leaf, { maxKeys: 6 }), leaf, fc.array(leaf, { maxLength: 2 }));

describe('request parts that pass their schema unchanged', () => {
  it('are accepted only where zod accepts them, and zod answers the same value', () => {
    let accepted = 0;
    fc.assert(
      fc.property(value, (input) => {
        for (const [name, schema] of schemas) {
          const check = asIsCheck(schema);
          if (!check?.(input)) continue;
          accepted++;
          const result = safeParse(schema, input);
          expect({ name, input, success: result.success }).toEqual({ name, input, success: true });
          expect(JSON.stringify(result.data)).toBe(JSON.stringify(input));
        }
      }),
      { numRuns: 3000, seed: 13 },
    );
    // The corpus reaches the accepting side (a check that never says yes would pass the above).
    expect(accepted).toBeGreaterThan(100);
  });

  it('covers the hot route: an internal transfer body, no query, the idempotency header, a wallet id', () => {
    const body = { destination_account_number: '0123456789', amount: 1 };
    expect(asIsCheck(transactions.TransferBody)?.(body)).toBe(true);
    expect(asIsCheck(common.NoQuery)?.({})).toBe(true);
    expect(asIsCheck(common.IdempotencyHeaders)?.({ host: 'x', 'content-type': 'application/json' })).toBe(true);
    expect(asIsCheck(wallets.WalletParams)?.({ wallet_id: 'w' })).toBe(true);
    // What zod refuses, or would change, goes to zod: strings, floats, negatives, huge amounts, unknown fields, another order.
    for (const bad of [
      { ...body, amount: '1' },
      { ...body, amount: 1.5 },
      { ...body, amount: -1 },
      { ...body, amount: 10_000_000_000_001 },
      { ...body, amount: 2 ** 53 },
      { ...body, extra: 1 },
      { amount: 1, destination_account_number: '0123456789' },
      { ...body, narration: 'x'.repeat(101) },
      { ...body, destination_bank_code: '12' },
    ]) {
      expect(asIsCheck(transactions.TransferBody)?.(bad)).toBe(false);
    }
    expect(asIsCheck(common.NoQuery)?.({ page: '1' })).toBe(false);
    // Schemas with parts it does not read are always zod's: a refinement, a trim, a default, a transform.
    expect(asIsCheck(z.object({ a: z.int() }).refine((v) => v.a > 1))).toBeUndefined();
    expect(asIsCheck(z.object({ a: z.string().trim() }))).toBeUndefined();
    expect(asIsCheck(z.object({ a: z.int().default(1) }))).toBeUndefined();
    expect(asIsCheck(z.string().transform((v) => v.length))).toBeUndefined();
    expect(asIsCheck(common.IdempotencyHeaders)?.({ 'idempotency-key': '' })).toBe(false);
  });
});
