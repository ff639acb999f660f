import { describe, expect, it } from 'vitest';
import { createWallet, expectCleanAudit, TEST_BACKEND, useSandbox, walletBody } from '../helpers/sandbox.js';

const t = useSandbox();

describe('authentication (decisions: Keys and secrets)', () => {
  it('answers 401 UNAUTHORIZED with the documented body when the key is missing', async () => {
    const r = await t.call('GET', '/v1/wallets/x', undefined, { key: null });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      success: false,
      // A request of no developer has an id of its own form, counted apart.
      detail: { code: 'UNAUTHORIZED', message: expect.stringMatching(/missing/), request_id: 'req_anon_00000001' },
    });
    expect(r.headers['request-id']).toBe('req_anon_00000001');
  });

  it('refuses an unknown key and a live key', async () => {
    const unknown = await t.call('GET', '/sandbox/clock', undefined, { key: 'svc_test_nope' });
    expect([unknown.status, unknown.body.detail.code]).toEqual([401, 'UNAUTHORIZED']);
    const live = await t.call('GET', '/sandbox/clock', undefined, { key: 'svc_live_0123456789abcdef0123456789abcdef' });
    expect(live.status).toBe(401);
    expect(live.body.detail.message).toMatch(/live keys .* not accepted by the sandbox/);
  });

  it('lets health and the OpenAPI document through without a key', async () => {
    const health = await t.call('GET', '/sandbox/health', undefined, { key: null });
    expect(health.body).toEqual({
      success: true,
      data: {
        status: 'ok',
        version: expect.any(String),
        api_version: '2026-11-01',
        server_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        // Where servers may share the database, the lease each begun webhook attempt holds (default: the timeout + 15 s).
        ...(TEST_BACKEND === 'sqlite'
          ? { backend: 'sqlite', database: ':memory:' }
          : {
              backend: 'postgres',
              database: expect.stringMatching(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/t_[0-9a-f]{16}$/),
              lease_seconds: 30,
              deliveries_leased_by_this_server: 0,
            }),
      },
    });
    expect((await t.call('GET', '/openapi.json', undefined, { key: null })).status).toBe(200);
  });

  it('makes the old key fail at once after rotation', async () => {
    const rotated = await t.call('POST', '/sandbox/keys/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.api_key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect((await t.call('GET', '/sandbox/clock')).status).toBe(401);
    expect((await t.call('GET', '/sandbox/clock', undefined, { key: rotated.body.data.api_key })).status).toBe(200);
  });

  it("hides another developer's wallets and transactions behind 404", async () => {
    const mine = await createWallet(t, 5000);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Acme Pay' });
    expect(other.status).toBe(201);
    const key = other.body.data.api_key;
    // The other developer's first and second requests: its ids are its own count.
    for (const [n, url] of [`/v1/wallets/${mine.id}`, `/v1/wallets/${mine.id}/transactions`].entries()) {
      const r = await t.call('GET', url, undefined, { key });
      expect([r.status, r.body.detail]).toEqual([
        404,
        { code: 'NOT_FOUND', message: 'wallet not found', request_id: `req_0000000${n + 1}` },
      ]);
    }
    const close = await t.call('POST', `/v1/wallets/${mine.id}/close`, undefined, { key });
    expect(close.status).toBe(404);
    const txs = await t.call('GET', `/v1/wallets/${mine.id}/transactions`);
    const tx = await t.call('GET', `/v1/transactions/${txs.body.data.items[0].id}`, undefined, { key });
    expect([tx.status, tx.body.detail.message]).toEqual([404, 'transaction not found']);
    const theirs = await t.call('POST', '/v1/wallets', walletBody(), { key });
    expect(theirs.body.data.account_name).toBe('ACME PAY / ADA OBI');
    const sandboxList = await t.call('GET', '/sandbox/wallets', undefined, { key });
    expect(sandboxList.body.data.items.map((w: { id: string }) => w.id)).toEqual([theirs.body.data.id]);
  });
});

describe('request bodies (decisions: Requests and validation)', () => {
  it('answers 400 INVALID_JSON to broken JSON and writes nothing', async () => {
    const r = await t.call('POST', '/v1/wallets', '{"customer_reference": "a",');
    expect([r.status, r.body.detail.code]).toEqual([400, 'INVALID_JSON']);
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
  });

  it('refuses a body that is not UTF-8 (Latin-1 "café") with 400 INVALID_JSON, and writes nothing', async () => {
    // Decoded anyway, it would be stored as "caf\uFFFD".
    for (const [n, type] of ['application/json', 'application/json; charset=latin1'].entries()) {
      // Every other character is ASCII: only the é (one byte, 0xE9, in Latin-1) is not UTF-8.
      const payload = Buffer.from(JSON.stringify(walletBody({ first_name: 'café' })), 'latin1');
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/wallets',
        headers: { 'x-api-key': t.key, 'content-type': type },
        payload,
      });
      expect([r.statusCode, JSON.parse(r.body).detail]).toEqual([
        400,
        {
          code: 'INVALID_JSON',
          message: 'request body is not valid JSON: it is not UTF-8 text',
          request_id: `req_0000000${n + 1}`,
        },
      ]);
    }
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    // The same name in UTF-8 is kept as sent.
    const r = await t.call('POST', '/v1/wallets', walletBody({ first_name: 'café' }));
    expect([r.status, r.body.data.first_name]).toEqual([201, 'café']);
  });

  it('answers 415 to a body that is not JSON', async () => {
    const r = await t.call('POST', '/v1/wallets', 'customer_reference=a', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([r.status, r.body.detail.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('answers 413 to a body over 64 KiB', async () => {
    const r = await t.call('POST', '/v1/wallets', walletBody({ label: 'x'.repeat(70 * 1024) }));
    expect([r.status, r.body.detail.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('names unknown fields', async () => {
    const r = await t.call('POST', '/v1/wallets', walletBody({ balance: 100, nickname: 'x' }));
    expect(r.status).toBe(400);
    expect(r.body.detail.code).toBe('VALIDATION_ERROR');
    expect(r.body.detail.fields).toEqual([
      { field: 'balance', message: 'unknown field' },
      { field: 'nickname', message: 'unknown field' },
    ]);
  });

  it('a write that takes no body refuses each field it is sent, by name, and does nothing', async () => {
    const w = await createWallet(t, 1_000);
    const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
    const bodiless = Object.entries(
      document.paths as Record<string, Record<string, { requestBody?: { required?: boolean } }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody?.required === false)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    // Every write of the API without a body of its own (snapshots are the owner's: t is the owner).
    expect(bodiless.sort()).toEqual([
      'DELETE /sandbox/snapshots/{name}',
      'POST /sandbox/dashboard/links',
      'POST /sandbox/keys/rotate',
      'POST /sandbox/payouts/{transaction_id}/fail',
      'POST /sandbox/payouts/{transaction_id}/settle',
      'POST /sandbox/reset',
      'POST /sandbox/snapshots/{name}/restore',
      'POST /sandbox/webhook-endpoint/rotate-secret',
      'POST /v1/wallets/{wallet_id}/close',
      'POST /v1/webhook-logs/{log_id}/retry',
    ]);
    const keyBefore = (await t.call('GET', '/sandbox/keys')).body.data;
    const secretBefore = (await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret;
    for (const route of bodiless) {
      const [method, path] = route.split(' ') as [string, string];
      const r = await t.call(method, path.replace(/\{[^}]+\}/g, w.id), { all: true });
      expect([route, r.status, r.body.detail?.code, r.body.detail?.fields]).toEqual([
        route,
        400,
        'VALIDATION_ERROR',
        [{ field: 'all', message: 'unknown field' }],
      ]);
    }
    // Nothing happened: the wallet is open with its money, the key and the secret are the same.
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data).toMatchObject({ status: 'ACTIVE', balance: 1_000 });
    expect((await t.call('GET', '/sandbox/keys')).body.data).toEqual(keyBefore);
    expect((await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret).toBe(secretBefore);
    // No body, or an empty object, is what they take.
    expect((await t.call('POST', `/v1/wallets/${w.id}/close`, {})).body.data.status).toBe('CLOSED');
    expect((await t.call('POST', '/sandbox/reset')).status).toBe(200);
  });

  it('refuses every parameter given twice by name, on every endpoint', async () => {
    const w = await createWallet(t);
    const twice = await t.call('GET', `/v1/wallets/${w.id}/transactions?limit=1&limit=2`);
    expect([twice.status, twice.body]).toEqual([
      400,
      {
        success: false,
        detail: {
          code: 'VALIDATION_ERROR',
          message: 'limit was given more than once: give it once',
          fields: [{ field: 'limit', message: 'was given more than once: give it once' }],
          request_id: 'req_00000003',
        },
      },
    ]);
    // The other problems of the query come with it; an unknown parameter stays unknown, however often it is given.
    const mixed = await t.call('GET', '/sandbox/wallets?limit=1&limit=1&page=0&bogus=1&bogus=2');
    expect([mixed.status, mixed.body.detail.fields]).toEqual([
      400,
      [
        { field: 'limit', message: 'was given more than once: give it once' },
        { field: 'page', message: expect.any(String) },
        { field: 'bogus', message: 'unknown field' },
      ],
    ]);
    const document = (await t.call('GET', '/openapi.json', undefined, { key: null })).body;
    type Parameter = { in: string; name: string; required?: boolean; example?: string };
    const queried = Object.entries(
      document.paths as Record<string, Record<string, { parameters?: Parameter[] }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
        // The other parameters an operation requires (a search's `q`) are given their declared example.
        const required = (name: string) =>
          query
            .filter((p) => p.required && p.name !== name)
            .map((p) => `&${p.name}=${encodeURIComponent(p.example!)}`)
            .join('');
        return query.map((p) => [method.toUpperCase(), path, p.name, required(p.name)] as const);
      }),
    );
    expect(queried.length).toBeGreaterThan(30);
    for (const [method, path, name, others] of queried) {
      const url = `${path.replace(/\{[^}]+\}/g, w.id)}?${name}=1&${name}=2${others}`;
      const r = await t.call(method, url);
      expect([url, r.status, r.body.detail?.fields]).toEqual([
        url,
        400,
        [{ field: name, message: 'was given more than once: give it once' }],
      ]);
    }
  });

  it('answers 404 NOT_FOUND on an unknown route', async () => {
    const r = await t.call('GET', '/v1/nothing-here');
    expect([r.status, r.body.detail.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('Idempotency-Key (decisions: Idempotency)', () => {
  it('replays the first response with Idempotent-Replayed and creates nothing new', async () => {
    const body = walletBody();
    const first = await t.call('POST', '/v1/wallets', body, { headers: { 'idempotency-key': 'create-1' } });
    const again = await t.call('POST', '/v1/wallets', { ...body }, { headers: { 'idempotency-key': 'create-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(1);
  });

  it('treats the same body in another key order as the same request', async () => {
    const body = walletBody();
    await t.call('POST', '/v1/wallets', body, { headers: { 'idempotency-key': 'k' } });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await t.call('POST', '/v1/wallets', reordered, { headers: { 'idempotency-key': 'k' } });
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED to the same key with a different body', async () => {
    await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'k' } });
    const r = await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'k' } });
    expect([r.status, r.body.detail.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('does not store a request that failed validation, so a corrected retry can use the key', async () => {
    const bad = await t.call('POST', '/v1/wallets', walletBody({ email: 'not-an-email' }), {
      headers: { 'idempotency-key': 'k' },
    });
    expect(bad.status).toBe(400);
    const good = await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'k' } });
    expect(good.status).toBe(201);
  });

  it('replays a refused transfer without moving money twice', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    const send = () =>
      t.call(
        'POST',
        `/v1/wallets/${a.id}/transfer`,
        { destination_account_number: b.account_number, amount: 6000 },
        { headers: { 'idempotency-key': 'pay-1' } },
      );
    const first = await send();
    const second = await send();
    expect(first.body.data.new_balance).toBe(4000);
    expect(second.body).toEqual(first.body);
    expect((await t.call('GET', `/v1/wallets/${a.id}`)).body.data.balance).toBe(4000);
    await expectCleanAudit(t);
  });

  it('scopes keys by route: the same key on another endpoint is a new request', async () => {
    const created = await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'k' } });
    const r = await t.call('POST', `/v1/wallets/${created.body.data.id}/close`, undefined, {
      headers: { 'idempotency-key': 'k' },
    });
    expect([r.status, r.body.data.status, r.headers['idempotent-replayed']]).toEqual([200, 'CLOSED', undefined]);
  });

  it('rejects a key longer than 255 characters', async () => {
    const r = await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(r.status).toBe(400);
    expect(r.body.detail.fields).toEqual([{ field: 'idempotency-key', message: 'must be 1 to 255 characters' }]);
  });
});

describe('sandbox clock (decisions: Tenancy, clocks and reset)', () => {
  it('moves forward and refuses to move back', async () => {
    expect((await t.call('GET', '/sandbox/clock')).body.data).toEqual({
      now: '2026-11-21T09:30:00.000Z',
      offset_seconds: 0,
    });
    const advanced = await t.call('POST', '/sandbox/clock/advance', { seconds: 90 });
    expect(advanced.body.data).toEqual({ now: '2026-11-21T09:31:30.000Z', offset_seconds: 90 });
    const back = await t.call('POST', '/sandbox/clock/advance', { seconds: -1 });
    expect([back.status, back.body.detail.fields[0].field]).toEqual([400, 'seconds']);
    const wallet = await createWallet(t);
    expect(wallet.created_at).toBe('2026-11-21T09:31:30.000Z');
  });
});

describe('reset (decisions: Tenancy, clocks and reset)', () => {
  it('empties wallets and money but keeps the developer and key', async () => {
    await createWallet(t, 5000);
    const r = await t.call('POST', '/sandbox/reset');
    expect(r.body.data).toMatchObject({ reset: true, removed: { wallets: 1, transactions: 1 } });
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    await expectCleanAudit(t);
    expect((await createWallet(t, 100)).balance).toBe(100);
  });
});
