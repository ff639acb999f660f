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
let routes: {
  method: string;
  path: string;
  fields: string[];
  required: string[];
  statuses: string[];
  files: string[];
}[];
let ids: string[];
let otherKey: string;

beforeAll(async () => {
  t = await createTestSandbox({ seed: 'fuzz' });
  const w = await createWallet(t, 100_000);
  const d = await createWallet(t);
  const tx = (await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.items[0].id;
  const held = (
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: w.account_number,
      amount: 500,
      narration: 'asdfgh',
    })
  ).body.data.suspense_item.id;
  const agent = (
    await t.call('POST', `/v1/wallets/${w.id}/agents`, { name: 'a', trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' })
  ).body.data.id;
  const log = (await t.call('GET', '/v1/webhook-logs')).body.data.items[0].id;
  const payout = (
    await t.call('POST', `/v1/wallets/${w.id}/transfer`, {
      destination_account_number: '2222222222',
      destination_bank_code: '058',
      amount: 100,
    })
  ).body.data.transaction_id;
  ids = [w.id, d.id, tx, held, agent, log, payout, t.developerId];
  otherKey = (await t.call('POST', '/sandbox/developers', { business_name: 'Intruder' })).body.data.api_key;
  const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
  routes = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const schema = operation.requestBody?.content?.['application/json']?.schema ?? {};
      const files = Object.keys(operation.responses['200']?.content ?? {}).filter(
        (type) => type !== 'application/json',
      );
      return {
        method: method.toUpperCase(),
        path,
        fields: Object.keys(schema.properties ?? {}),
        required: (schema.required ?? []) as string[],
        statuses: Object.keys(operation.responses),
        files,
      };
    }),
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
const pathId = () =>
  fc.oneof(
    fc.constantFrom(...ids),
    fc.string({ maxLength: 40 }),
    fc.constant('../../etc/passwd'),
    fc.constant('%00'),
    fc.uuid(),
  );
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom(
        'amount',
        'account_number',
        'destination_account_number',
        'destination_bank_code',
        'customer_reference',
        'first_name',
        'last_name',
        'email',
        'action',
        'target_wallet_id',
        'seconds',
        'url',
        'is_active',
        'trigger',
        'threshold',
        'name',
        'status',
        'count',
        'bank_code',
        'business_name',
        '__proto__',
        'constructor',
      ),
      fc.oneof(
        fc.integer(),
        fc.double(),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.constantFrom(
          '0123456789',
          '2222222222',
          'CREDIT_WALLET',
          'DISMISS',
          'ON_CREDIT',
          'SWEEP',
          '058',
          'a@b.ng',
          1e13,
          -1,
          1e300,
        ),
        fc.array(fc.integer(), { maxLength: 3 }),
      ),
    )
    .map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    deep(5000),
    '{"a":' + '{"a":'.repeat(2000) + '1' + '}'.repeat(2001),
    'null',
    '[]',
    '""',
    '{"amount": 1e400}',
  ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
);
const query = fc.dictionary(
  fc.constantFrom(
    'page',
    'limit',
    'order',
    'type',
    'status',
    'reason',
    'event_type',
    'wallet_id',
    'customer_reference',
    'x',
  ),
  fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.constantFrom(
      '0',
      '1',
      '100',
      '101',
      '-1',
      '1.5',
      'desc',
      'CREDIT',
      'PENDING',
      'ledger.credit',
      '99999999999999999999',
    ),
  ),
);

describe('hostile input', () => {
  it('never answers 5xx and always uses the documented error shape, on every endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        pathId(),
        body,
        contentType,
        query,
        fc.option(fc.string({ maxLength: 300 })),
        fc.boolean(),
        async (which, id, payload, type, q, idempotencyKey, withKey) => {
          const route = routes[which % routes.length]!;
          const url =
            route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(id)) +
            (Object.keys(q).length ? `?${new URLSearchParams(q)}` : '');
          const headers: Record<string, string> = {};
          if (withKey) headers['x-api-key'] = t.key;
          if (type && payload !== undefined) headers['content-type'] = type;
          if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
          const response = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers,
            ...(payload !== undefined && !['GET', 'HEAD'].includes(route.method) ? { payload } : {}),
          });
          let parsed: unknown;
          try {
            parsed = JSON.parse(response.body);
          } catch {
            parsed = response.body;
          }
          expect(
            route.statuses,
            `${route.method} ${route.path} answered ${response.statusCode}, which its OpenAPI operation does not declare`,
          ).toContain(String(response.statusCode));
          // A file (the sandbox's download) is what its operation declares; every other answer is the envelope.
          if (response.statusCode === 200 && route.files.length > 0)
            expect(route.files).toContain(response.headers['content-type']);
          else expectDocumentedShape(response.statusCode, parsed);
        },
      ),
      { seed: 20261121, numRuns: 1500 },
    );
    // The fuzzer may have rotated the key or reset the sandbox: read the audit straight from the engine.
    expect((await audit(t.sandbox.db)).problems).toEqual([]);
  });

  it("answers 404 on every endpoint to another developer's ids", async () => {
    const valid: Record<string, unknown> = {
      'POST /v1/wallets/{wallet_id}/transfer': {
        destination_account_number: '0123456789',
        destination_bank_code: '058',
        amount: 1,
      },
      'POST /v1/wallets/{wallet_id}/agents': { name: 'x', trigger: 'ON_CREDIT', action: 'LOCK_WALLET' },
      'PATCH /v1/wallets/{wallet_id}/agents/{agent_id}/toggle': { is_active: false },
      'POST /v1/suspense/{suspense_id}/resolve': { action: 'DISMISS' },
      'POST /v1/suspense/{suspense_id}/flag': { note: 'x' },
      'POST /v1/suspense/{suspense_id}/notes': { note: 'x' },
      'PATCH /sandbox/wallets/{wallet_id}': { allow_transfers_out: false },
    };
    // Snapshots are the owner's alone: another developer gets 403 before any name is looked at (below).
    const withParams = routes.filter(
      (r) =>
        r.path.includes('{') && !r.path.startsWith('/sandbox/receiver') && !r.path.startsWith('/sandbox/snapshots'),
    );
    expect(withParams.length).toBeGreaterThanOrEqual(14);
    for (const route of withParams) {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const idFor = (name: string) =>
        ({
          wallet_id: ids[0],
          tx_id: ids[2],
          transaction_id: ids[6],
          suspense_id: ids[3],
          agent_id: ids[4],
          log_id: ids[5],
        })[name]!;
      const url = names.reduce((p, name) => p.replace(`{${name}}`, idFor(name)), route.path);
      const r = await t.call(route.method, url, valid[`${route.method} ${route.path}`], { key: otherKey });
      expect([`${route.method} ${route.path}`, r.status, r.body.detail?.code]).toEqual([
        `${route.method} ${route.path}`,
        404,
        'NOT_FOUND',
      ]);
    }
  });
});

describe('snapshots', () => {
  it('answer 403 FORBIDDEN on every snapshot endpoint to a developer who is not the sandbox owner, and change nothing', async () => {
    const snapshotRoutes = routes.filter((r) => r.path.startsWith('/sandbox/snapshots'));
    expect(snapshotRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'DELETE /sandbox/snapshots/{name}',
      'GET /sandbox/snapshots',
      'POST /sandbox/snapshots',
      'POST /sandbox/snapshots/restore',
      'POST /sandbox/snapshots/{name}/restore',
    ]);
    // A sandbox of its own: the fuzzer above may have rotated t's key.
    const owner = await createTestSandbox({ seed: 'snapshot-owner' });
    try {
      const intruder = (await owner.call('POST', '/sandbox/developers', { business_name: 'Intruder' })).body.data
        .api_key;
      const w = await createWallet(owner, 5_000);
      expect((await owner.call('POST', '/sandbox/snapshots', { name: 'owners' })).status).toBe(200);
      const valid: Record<string, unknown> = {
        'POST /sandbox/snapshots': { name: 'owners' },
        'POST /sandbox/snapshots/restore': { file: '/tmp/x.db' },
      };
      for (const route of snapshotRoutes) {
        const r = await owner.call(
          route.method,
          route.path.replace('{name}', 'owners'),
          valid[`${route.method} ${route.path}`],
          { key: intruder },
        );
        expect([`${route.method} ${route.path}`, r.status, r.body.detail?.code]).toEqual([
          `${route.method} ${route.path}`,
          403,
          'FORBIDDEN',
        ]);
      }
      expect((await owner.call('GET', '/sandbox/snapshots')).body.data.items).toEqual([
        expect.objectContaining({ name: 'owners' }),
      ]);
      expect((await owner.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(5_000);
    } finally {
      await owner.close();
    }
  });
});

describe('another developer', () => {
  it("on every endpoint, one developer's actions leave another developer's reads and audit unchanged", async () => {
    const a = await createTestSandbox({ seed: 'fuzz-tenancy', listen: true });
    try {
      // Developer A: a little of everything, settled so that nothing of A's falls due later.
      const aw = await createWallet(a, 100_000);
      const ad = await createWallet(a);
      await a.call('POST', `/v1/wallets/${aw.id}/transfer`, {
        destination_account_number: ad.account_number,
        amount: 1_000,
      });
      await a.call('POST', '/sandbox/inbound-transfers', {
        account_number: aw.account_number,
        amount: 700,
        narration: 'asdfgh',
      });
      await a.call('POST', `/v1/wallets/${aw.id}/agents`, {
        name: 'n',
        trigger: 'ON_CREDIT',
        action: 'WEBHOOK_NOTIFY',
      });
      await a.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 2 });
      await a.call('POST', '/sandbox/clock/advance', { seconds: 90_000 });
      const viewOfA = async () => {
        const views: unknown[] = [];
        for (const url of [
          '/sandbox/wallets?limit=100',
          `/v1/wallets/${aw.id}/transactions?limit=100`,
          `/v1/wallets/${ad.id}/transactions?limit=100`,
          '/v1/suspense?limit=100',
          '/v1/agents?limit=100',
          '/v1/webhook-logs?limit=100',
          '/sandbox/receiver/events?limit=100',
          '/sandbox/receiver/behaviour',
          '/sandbox/clock',
          '/sandbox/webhook-endpoint',
          '/sandbox/keys',
          '/sandbox/audit',
          '/sandbox/report?since=2026-01-01&until=2027-01-01',
        ]) {
          views.push((await a.call('GET', url)).body);
        }
        return views;
      };
      const before = await viewOfA();

      // Developer B, with data of its own, acts on every endpoint with its own ids, A's ids and junk.
      const b = (await a.call('POST', '/sandbox/developers', { business_name: 'Intruder' })).body.data;
      const asB = (method: string, url: string, body?: unknown) => a.call(method, url, body, { key: b.api_key });
      const bw = (
        await asB('POST', '/v1/wallets', { customer_reference: 'b1', first_name: 'B', last_name: 'B', email: 'b@b.ng' })
      ).body.data;
      await asB('POST', '/sandbox/inbound-transfers', { account_number: bw.account_number, amount: 50_000 });
      await asB('POST', '/sandbox/inbound-transfers', {
        account_number: bw.account_number,
        amount: 700,
        narration: 'asdfgh',
      });
      // B's ids change as B creates, resets and creates again: each run picks from what B has now.
      const bNow = async () => {
        const wallets = (await asB('GET', '/sandbox/wallets?limit=100')).body.data.items as {
          id: string;
          account_number: string;
        }[];
        const logs = (await asB('GET', '/v1/webhook-logs?limit=20&order=desc')).body.data.items as { id: string }[];
        const held = (await asB('GET', '/v1/suspense?limit=20&order=desc')).body.data.items as { id: string }[];
        const agents = (await asB('GET', '/v1/agents?limit=20&order=desc')).body.data.items as { id: string }[];
        const txs = wallets.length
          ? ((await asB('GET', `/v1/wallets/${wallets[0]!.id}/transactions?limit=20&order=desc`)).body.data.items as {
              id: string;
            }[])
          : [];
        return {
          wallets: wallets.map((w) => w.id),
          logs: logs.map((l) => l.id),
          held: held.map((h) => h.id),
          agents: agents.map((g) => g.id),
          txs: txs.map((t) => t.id),
          accounts: wallets.map((w) => w.account_number),
        };
      };
      const aLogs = (await a.call('GET', '/v1/webhook-logs')).body.data.items.map(
        (l: { id: string }) => l.id,
      ) as string[];
      const aHeld = (await a.call('GET', '/v1/suspense')).body.data.items.map((h: { id: string }) => h.id) as string[];
      const aAgents = (await a.call('GET', '/v1/agents')).body.data.items.map((g: { id: string }) => g.id) as string[];
      const aTxs = (await a.call('GET', `/v1/wallets/${aw.id}/transactions`)).body.data.items.map(
        (t: { id: string }) => t.id,
      ) as string[];
      // Rotating B's own key would only lock B out of the rest of the run: it is checked once, at the end.
      const acting = routes.filter(
        (r) => !r.path.startsWith('/sandbox/receiver/{') && r.path !== '/sandbox/keys/rotate',
      );
      const succeeded = new Set<string>();
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.nat(),
          fc.nat(),
          fc.nat(),
          fc.record({
            amount: fc.constantFrom(1, 100, 50_000),
            destination_bank_code: fc.constantFrom('035', '058'),
            seconds: fc.constantFrom(1, 3600, 90_000),
            action: fc.constantFrom('DISMISS', 'REFUND', 'CREDIT_WALLET'),
            url: fc.constantFrom(null, 'http://127.0.0.1:9/x'),
            status: fc.constantFrom(500, 200),
            count: fc.constantFrom(0, 3),
            is_active: fc.boolean(),
            allow_transfers_out: fc.boolean(),
            bank_code: fc.constantFrom('035', '058'),
            name: fc.constantFrom('sweeper', 'notify'),
            trigger: fc.constantFrom('ON_CREDIT', 'BALANCE_ABOVE'),
            threshold: fc.constantFrom(10, 1_000),
            first_name: fc.constant('Bee'),
            last_name: fc.constant('Intruder'),
            email: fc.constant('bee@example.com'),
            business_name: fc.constant('Third'),
            narration: fc.constantFrom('salary', 'asdfgh', 'SANDBOX-RISK'),
          }),
          fc.boolean(),
          async (which, pickId, pickAccount, fields, minimal) => {
            const route = acting[which % acting.length]!;
            const now = await bNow();
            // Each path parameter from the ids of its kind, A's and B's alike, or junk.
            const pools: Record<string, string[]> = {
              wallet_id: [aw.id, ad.id, ...now.wallets, ...now.wallets],
              log_id: [...aLogs, ...now.logs],
              suspense_id: [...aHeld, ...now.held, ...now.held],
              agent_id: [...aAgents, ...now.agents],
              tx_id: [...aTxs, ...now.txs],
              transaction_id: [...aTxs, ...now.txs],
            };
            const pick = (kind: string, k: number) => {
              const pool = [...(pools[kind] ?? []), 'x'];
              return pool[k % pool.length]!;
            };
            const accounts = [aw.account_number, ad.account_number, ...now.accounts, ...now.accounts, '1111111111'];
            const account = accounts[pickAccount % accounts.length]!;
            const values: Record<string, unknown> = {
              ...fields,
              account_number: account,
              destination_account_number: account,
              target_wallet_id: pick('wallet_id', pickId + 1),
              destination_wallet_id: pick('wallet_id', pickId + 2),
              action: route.path.includes('agents') ? 'WEBHOOK_NOTIFY' : fields.action,
              customer_reference: `b-${n++}`,
            };
            const url = route.path.replace(/\{([^}]+)\}/g, (_m, kind: string) => pick(kind, pickId));
            // A body the route takes: the fields its schema names (only the required ones, at times).
            const names = minimal ? route.required : route.fields;
            const body = route.fields.length
              ? Object.fromEntries(names.filter((name) => name in values).map((name) => [name, values[name]]))
              : undefined;
            const r = await asB(route.method, url, body);
            expect(r.status, `${route.method} ${url}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
            if (r.status < 300) succeeded.add(`${route.method} ${route.path}`);
          },
        ),
        { seed: 20261123, numRuns: 600 },
      );
      // Then every endpoint once more, with a request that succeeds: B really acts, not only fails.
      const w1 = (
        await asB('POST', '/v1/wallets', {
          customer_reference: 'script-1',
          first_name: 'B',
          last_name: 'One',
          email: 'b1@b.ng',
        })
      ).body.data;
      const w2 = (
        await asB('POST', '/v1/wallets', {
          customer_reference: 'script-2',
          first_name: 'B',
          last_name: 'Two',
          email: 'b2@b.ng',
        })
      ).body.data;
      await asB('POST', '/sandbox/inbound-transfers', { account_number: w1.account_number, amount: 90_000 });
      const heldId = (
        await asB('POST', '/sandbox/inbound-transfers', {
          account_number: w1.account_number,
          amount: 500,
          narration: 'asdfgh',
        })
      ).body.data.suspense_item.id;
      const agentId = (
        await asB('POST', `/v1/wallets/${w1.id}/agents`, { name: 'n', trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' })
      ).body.data.id;
      // The payout's ledger.debit is handed to the receiver in the write that makes it: it fails once.
      await asB('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 1 });
      const payoutId = (
        await asB('POST', `/v1/wallets/${w1.id}/transfer`, {
          destination_account_number: '2222222222',
          destination_bank_code: '058',
          amount: 100,
        })
      ).body.data.transaction_id;
      await a.app.scheduler.runDue(b.developer_id);
      const failedLogs = await asB('GET', '/v1/webhook-logs?status=FAILED');
      const failedLog = failedLogs.body.data.items[0].id;
      const script: Record<string, [string, unknown?]> = {
        'GET /sandbox/health': ['/sandbox/health'],
        'POST /v1/wallets': [
          '/v1/wallets',
          { customer_reference: 'script-3', first_name: 'B', last_name: 'Three', email: 'b3@b.ng' },
        ],
        'GET /v1/wallets/{wallet_id}': [`/v1/wallets/${w1.id}`],
        'GET /v1/wallets/{wallet_id}/transactions': [`/v1/wallets/${w1.id}/transactions`],
        'POST /v1/wallets/{wallet_id}/transfer': [
          `/v1/wallets/${w1.id}/transfer`,
          { destination_account_number: w2.account_number, amount: 1_000 },
        ],
        'GET /v1/transactions/{tx_id}': [`/v1/transactions/${payoutId}`],
        'GET /sandbox/transactions/{tx_id}/payout': [`/sandbox/transactions/${payoutId}/payout`],
        'POST /v1/wallets/{wallet_id}/agents': [
          `/v1/wallets/${w1.id}/agents`,
          { name: 'lock', trigger: 'BALANCE_ABOVE', threshold: 10_000_000, action: 'LOCK_WALLET' },
        ],
        'PATCH /v1/wallets/{wallet_id}/agents/{agent_id}/toggle': [
          `/v1/wallets/${w1.id}/agents/${agentId}/toggle`,
          { is_active: false },
        ],
        'GET /v1/agents': ['/v1/agents'],
        'GET /sandbox/agents/{agent_id}/runs': [`/sandbox/agents/${agentId}/runs`],
        'GET /v1/suspense': ['/v1/suspense'],
        'GET /v1/transactions': ['/v1/transactions'],
        'GET /sandbox/suspense/{suspense_id}': [`/sandbox/suspense/${heldId}`],
        'POST /v1/suspense/{suspense_id}/flag': [`/v1/suspense/${heldId}/flag`, { note: 'escalated by B' }],
        'POST /v1/suspense/{suspense_id}/notes': [`/v1/suspense/${heldId}/notes`, { note: 'noted by B' }],
        'POST /v1/suspense/{suspense_id}/resolve': [
          `/v1/suspense/${heldId}/resolve`,
          { action: 'CREDIT_WALLET', target_wallet_id: w2.id },
        ],
        'GET /v1/webhook-logs': ['/v1/webhook-logs'],
        'POST /v1/webhook-logs/{log_id}/retry': [`/v1/webhook-logs/${failedLog}/retry`],
        'GET /sandbox/webhook-logs/{log_id}': [`/sandbox/webhook-logs/${failedLog}`],
        'GET /sandbox/webhook-logs/{log_id}/attempts': [`/sandbox/webhook-logs/${failedLog}/attempts`],
        'GET /v1/banks': ['/v1/banks'],
        'POST /v1/banks/resolve': ['/v1/banks/resolve', { account_number: aw.account_number, bank_code: '035' }],
        'GET /sandbox/magic': ['/sandbox/magic'],
        'POST /sandbox/payouts/{transaction_id}/settle': [`/sandbox/payouts/${payoutId}/settle`],
        'POST /sandbox/payouts/{transaction_id}/fail': [
          `/sandbox/payouts/${
            (
              await asB('POST', `/v1/wallets/${w1.id}/transfer`, {
                destination_account_number: '2222222222',
                destination_bank_code: '058',
                amount: 100,
              })
            ).body.data.transaction_id
          }/fail`,
        ],
        'GET /sandbox/wallets': ['/sandbox/wallets'],
        'GET /sandbox/search': [`/sandbox/search?q=${w1.id.slice(0, 8)}`],
        'PATCH /sandbox/wallets/{wallet_id}': [`/sandbox/wallets/${w1.id}`, { allow_transfers_out: false }],
        'POST /sandbox/inbound-transfers': [
          '/sandbox/inbound-transfers',
          { account_number: w2.account_number, amount: 100 },
        ],
        'POST /v1/wallets/{wallet_id}/close': [`/v1/wallets/${w2.id}/close`],
        'GET /sandbox/clock': ['/sandbox/clock'],
        'POST /sandbox/clock/advance': ['/sandbox/clock/advance', { seconds: 200_000 }],
        'GET /sandbox/keys': ['/sandbox/keys'],
        'POST /sandbox/developers': ['/sandbox/developers', { business_name: 'Third' }],
        'POST /sandbox/dashboard/links': ['/sandbox/dashboard/links'],
        'GET /sandbox/audit': ['/sandbox/audit'],
        'GET /sandbox/report': ['/sandbox/report?since=2026-01-01'],
        'GET /sandbox/requests': ['/sandbox/requests?status=4xx'],
        'GET /sandbox/requests/{request_id}': [`/sandbox/requests/${failedLogs.headers['request-id']}`],
        'GET /sandbox/webhook-endpoint': ['/sandbox/webhook-endpoint'],
        'PUT /sandbox/webhook-endpoint': ['/sandbox/webhook-endpoint', { url: 'http://127.0.0.1:9/b' }],
        'POST /sandbox/webhook-endpoint/rotate-secret': ['/sandbox/webhook-endpoint/rotate-secret'],
        'GET /sandbox/receiver/events': ['/sandbox/receiver/events'],
        'GET /sandbox/receiver/behaviour': ['/sandbox/receiver/behaviour'],
        'PUT /sandbox/receiver/behaviour': ['/sandbox/receiver/behaviour', { status: 503, count: 5 }],
        'POST /sandbox/analyse': ['/sandbox/analyse', { narration: 'rent', wallet_id: w1.id, amount: 5_000 }],
        'POST /sandbox/instruction': ['/sandbox/instruction', { wallet_id: w1.id }],
        'POST /sandbox/reset': ['/sandbox/reset'],
      };
      // Snapshots and the download of the whole sandbox cover every developer: B only ever gets 403 there (the snapshot tests).
      const scripted = acting.filter(
        (route) => !route.path.startsWith('/sandbox/snapshots') && route.path !== '/sandbox/database',
      );
      expect(Object.keys(script).sort()).toEqual(scripted.map((route) => `${route.method} ${route.path}`).sort());
      for (const [route, [url, body]] of Object.entries(script)) {
        const method = route.split(' ')[0]!;
        const r = await a.call(method, url, body, {
          key: ['/openapi.json', '/sandbox/health'].includes(url) ? null : b.api_key,
        });
        expect([route, r.status]).toEqual([route, r.status < 300 ? r.status : 'a 2xx']);
      }
      await asB('POST', '/sandbox/keys/rotate');
      await a.app.scheduler.runDue();
      expect(await viewOfA()).toEqual(before);
    } finally {
      await a.close();
    }
  }, 120_000);
});
