import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/api/errors.js';
import { audit } from '../../src/engine/audit/audit.service.js';
import { createTestSandbox, createWallet, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Hostile input against every endpoint of the OpenAPI document: random and malformed bodies, query
 * strings, headers and path ids. Nothing may answer 5xx, every error has the documented shape, every
 * status is one the operation declares, and the ledger stays consistent.
 */
let t: TestSandbox;
let routes: { method: string; path: string; statuses: string[] }[];
let ids: string[];
let otherKey: string;

beforeAll(async () => {
  t = await createTestSandbox({ seed: 'fuzz' });
  const w = await createWallet(t, 100_000);
  const d = await createWallet(t);
  const tx = (await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.items[0].id;
  const held = (await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 500, narration: 'asdfgh' })).body.data.suspense_item.id;
  const agent = (await t.call('POST', `/v1/wallets/${w.id}/agents`, { name: 'a', trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' })).body.data.id;
  const log = (await t.call('GET', '/v1/webhook-logs')).body.data.items[0].id;
  const payout = (await t.call('POST', `/v1/wallets/${w.id}/transfer`, { destination_account_number: '2222222222', destination_bank_code: '058', amount: 100 })).body.data.transaction_id;
  ids = [w.id, d.id, tx, held, agent, log, payout, t.developerId];
  otherKey = (await t.call('POST', '/sandbox/developers', { business_name: 'Intruder' })).body.data.api_key;
  const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
  routes = Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, statuses: Object.keys(operation.responses) })),
  );
});
afterAll(() => t.close());

function expectDocumentedShape(status: number, body: any) {
  expect(status, JSON.stringify(body)).toBeLessThan(500);
  if (status >= 400) {
    expect(body.success).toBe(false);
    expect(ERROR_CODES).toContain(body.detail.code);
    expect(typeof body.detail.message).toBe('string');
    if (body.detail.fields !== undefined) {
      for (const f of body.detail.fields) expect([typeof f.field, typeof f.message]).toEqual(['string', 'string']);
    }
  } else {
    expect(body.success).toBe(true);
  }
}

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const pathId = () => fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 40 }), fc.constant('../../etc/passwd'), fc.constant('%00'), fc.uuid());
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.dictionary(
    fc.constantFrom('amount', 'account_number', 'destination_account_number', 'destination_bank_code', 'customer_reference', 'first_name', 'last_name', 'email', 'action', 'target_wallet_id', 'seconds', 'url', 'is_active', 'trigger', 'threshold', 'name', 'status', 'count', 'bank_code', 'business_name', '__proto__', 'constructor'),
    fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null), fc.constantFrom('0123456789', '2222222222', 'CREDIT_WALLET', 'DISMISS', 'ON_CREDIT', 'SWEEP', '058', 'a@b.ng', 1e13, -1, 1e300), fc.array(fc.integer(), { maxLength: 3 })),
  ).map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(deep(5000), '{"a":' + '{"a":'.repeat(2000) + '1' + '}'.repeat(2001), 'null', '[]', '""', '{"amount": 1e400}'),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '');
const query = fc.dictionary(
  fc.constantFrom('page', 'limit', 'order', 'type', 'status', 'reason', 'event_type', 'wallet_id', 'customer_reference', 'x'),
  fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('0', '1', '100', '101', '-1', '1.5', 'desc', 'CREDIT', 'PENDING', 'ledger.credit', '99999999999999999999')),
);

describe('hostile input', () => {
  it('never answers 5xx and always uses the documented error shape, on every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), pathId(), body, contentType, query, fc.option(fc.string({ maxLength: 300 })), fc.boolean(), async (which, id, payload, type, q, idempotencyKey, withKey) => {
        const route = routes[which % routes.length]!;
        const url = route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(id)) + (Object.keys(q).length ? `?${new URLSearchParams(q)}` : '');
        const headers: Record<string, string> = {};
        if (withKey) headers['x-api-key'] = t.key;
        if (type && payload !== undefined) headers['content-type'] = type;
        if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
        const response = await t.app.inject({ method: route.method as 'GET', url, headers, ...(payload !== undefined && !['GET', 'HEAD'].includes(route.method) ? { payload } : {}) });
        let parsed: unknown;
        try {
          parsed = JSON.parse(response.body);
        } catch {
          parsed = response.body;
        }
        expect(route.statuses, `${route.method} ${route.path} answered ${response.statusCode}, which its OpenAPI operation does not declare`).toContain(String(response.statusCode));
        expectDocumentedShape(response.statusCode, parsed);
      }),
      { seed: 20261121, numRuns: 1500 },
    );
    // The fuzzer may have rotated the key or reset the sandbox: read the audit straight from the engine.
    expect((await audit(t.sandbox.db)).problems).toEqual([]);
  });

  it("answers 404 on every endpoint to another developer's ids", async () => {
    const valid: Record<string, unknown> = {
      'POST /v1/wallets/{wallet_id}/transfer': { destination_account_number: '0123456789', destination_bank_code: '058', amount: 1 },
      'POST /v1/wallets/{wallet_id}/agents': { name: 'x', trigger: 'ON_CREDIT', action: 'LOCK_WALLET' },
      'PATCH /v1/wallets/{wallet_id}/agents/{agent_id}/toggle': { is_active: false },
      'POST /v1/suspense/{suspense_id}/resolve': { action: 'DISMISS' },
      'PATCH /sandbox/wallets/{wallet_id}': { allow_transfers_out: false },
    };
    const withParams = routes.filter((r) => r.path.includes('{') && !r.path.startsWith('/sandbox/receiver'));
    expect(withParams.length).toBeGreaterThanOrEqual(14);
    for (const route of withParams) {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const idFor = (name: string) => ({ wallet_id: ids[0], tx_id: ids[2], transaction_id: ids[6], suspense_id: ids[3], agent_id: ids[4], log_id: ids[5] })[name]!;
      const url = names.reduce((p, name) => p.replace(`{${name}}`, idFor(name)), route.path);
      const r = await t.call(route.method, url, valid[`${route.method} ${route.path}`], { key: otherKey });
      expect([`${route.method} ${route.path}`, r.status, r.body.detail?.code]).toEqual([`${route.method} ${route.path}`, 404, 'NOT_FOUND']);
    }
  });
});
