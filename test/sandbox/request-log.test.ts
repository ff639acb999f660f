import Fastify from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSessions } from '../../src/sandbox/dashboard/sessions.js';
import { installAuth } from '../../src/sandbox/plugins/auth.js';
import { installErrorHandling } from '../../src/sandbox/plugins/errors.js';
import { installRequestIds } from '../../src/sandbox/plugins/request-ids.js';
import { installRequestLog } from '../../src/sandbox/plugins/request-log.js';
import { batchLines } from '../../src/sandbox/line-batch.js';
import { openServer } from '../../src/sandbox/server.js';
import { createTestSandbox, createWallet, T0, type TestSandbox, useSandbox, walletBody } from '../helpers/sandbox.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the line log of sandbox start', () => {
  it('writes the lines of one turn of the event loop together, in order, and at once when closed', async () => {
    const writes: string[] = [];
    const log = batchLines((text) => writes.push(text));
    log.line('a');
    log.line('b');
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(['a\nb\n']);
    log.line('c');
    log.close();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    // After close, a late line is written by itself, not left waiting.
    log.line('d');
    expect(writes).toEqual(['a\nb\n', 'c\n', 'd\n']);
  });

  it('notes every request of a running server, and none is lost when it closes', async () => {
    const calls: string[] = [];
    const server = await openServer({
      dbPath: ':memory:',
      seed: 'log',
      clockStart: T0,
      log: () => {},
      logRequest: (text) => calls.push(text),
    });
    const headers = { 'x-api-key': server.apiKey };
    await Promise.all(
      Array.from({ length: 5 }, () => server.app.inject({ method: 'GET', url: '/sandbox/health', headers })),
    );
    await server.app.inject({ method: 'GET', url: '/v1/wallets/nope', headers });
    // Closed in the same turn as the last answer: its line is still waiting, and close writes it.
    await server.close();
    const lines = calls.flatMap((text) => text.split('\n'));
    expect(lines).toHaveLength(6);
    expect(lines.slice(0, 5)).toEqual(
      Array.from({ length: 5 }, () =>
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z GET \/sandbox\/health 200 \d+\.\dms$/),
      ),
    );
    expect(lines[5]).toMatch(/^\S+ GET \/v1\/wallets\/nope 404 \d+\.\dms$/);
    // Several lines to a write: fewer writes than requests.
    expect(calls.length).toBeLessThan(6);
  });

  it('redacts an API key sent in the query string or the path, and any webhook secret, from the request log', async () => {
    const calls: string[] = [];
    const server = await openServer({
      dbPath: ':memory:',
      seed: 'log-secrets',
      clockStart: T0,
      log: () => {},
      logRequest: (text) => calls.push(text),
    });
    const key = server.apiKey!;
    const secret = (
      await server.app.inject({ method: 'GET', url: '/sandbox/webhook-endpoint', headers: { 'x-api-key': key } })
    ).json().data.secret as string;
    const live = `svc_live_${key.slice('svc_test_'.length)}`;
    const urls = [
      `/sandbox/clock?api_key=${key}`,
      `/v1/wallets/${key}`,
      `/v1/wallets?key=${live}`,
      `/sandbox/clock?secret=${encodeURIComponent(secret)}`,
      `/sandbox/clock?k=${key.replace(/_/g, '%5F')}`,
    ];
    for (const url of urls) await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    await server.close();
    const lines = calls.flatMap((text) => text.split('\n'));
    expect(lines).toHaveLength(urls.length + 1);
    const tail = key.slice('svc_test_'.length);
    for (const line of lines) {
      expect(line).not.toContain(tail);
      expect(line).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 12));
    }
    expect(lines.slice(1).map((line) => line.split(' ')[2])).toEqual([
      '/sandbox/clock?api_key=svc_test_[redacted]',
      '/v1/wallets/svc_test_[redacted]',
      '/v1/wallets?key=svc_live_[redacted]',
      '/sandbox/clock?secret=whsec_[redacted]',
      '/sandbox/clock?k=svc%5Ftest%5F[redacted]',
    ]);
  });
});

/** The caller's request log, newest first, as GET /sandbox/requests gives it. */
async function logOf(t: TestSandbox, query = '', key?: string) {
  const r = await t.call('GET', `/sandbox/requests${query}`, undefined, key === undefined ? {} : { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { items: Record<string, unknown>[]; total: number; page: number; limit: number };
}

describe('the request log (decisions: Request log)', () => {
  const t = useSandbox();

  it('gives every answer a request-id header, the same id as detail.request_id, and keeps the request under it', async () => {
    const wallet = await createWallet(t, 100);
    const refused = await t.call('POST', `/v1/wallets/${wallet.id}/transfer`, {
      destination_account_number: '2222222222',
      destination_bank_code: '058',
      amount: 5_000,
    });
    // The developer's fourth request: the wallet took three (create, credit, read).
    expect([refused.status, refused.headers['request-id'], refused.body.detail.request_id]).toEqual([
      422,
      'req_00000004',
      'req_00000004',
    ]);
    const shown = await t.call('GET', '/sandbox/requests/req_00000004');
    expect(shown.body.data).toEqual({
      id: 'req_00000004',
      method: 'POST',
      path: `/v1/wallets/${wallet.id}/transfer`,
      status: 422,
      code: 'INSUFFICIENT_FUNDS',
      duration_ms: expect.any(Number),
      idempotency_key: null,
      replayed: false,
      source: 'api',
      at: '2026-11-21T09:30:00.000Z',
      real_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      request_body: '{"destination_account_number":"2222222222","destination_bank_code":"058","amount":5000}',
    });
    // A success keeps no body; the log's own reads are not in it, and a request of no developer is
    // not logged (there is no one to show it to) though it has an id of its own form.
    const health = await t.call('GET', '/sandbox/health', undefined, { key: null });
    expect(health.headers['request-id']).toBe('req_anon_00000001');
    const log = await logOf(t);
    expect(log.items.map((r) => [r.id, r.method, r.status, r.request_body])).toEqual([
      ['req_00000004', 'POST', 422, expect.any(String)],
      ['req_00000003', 'GET', 200, null],
      ['req_00000002', 'POST', 200, null],
      ['req_00000001', 'POST', 201, null],
    ]);
    expect(shown.headers['request-id']).toBe('req_00000005');
  });

  it('filters by status or class, path prefix, since and Idempotency-Key, and pages newest first', async () => {
    const wallet = await createWallet(t); // 1, 2
    await t.call('GET', '/v1/wallets/nope'); // 3: 404
    await t.call('POST', '/sandbox/clock/advance', { seconds: 3600 }); // 4
    await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'k-1' } }); // 5
    await t.call('POST', `/v1/wallets/${wallet.id}/transfer`, { amount: 'x' }); // 6: 400
    await t.call('GET', `/v1/wallets/${wallet.id}`); // 7
    const ids = (log: { items: Record<string, unknown>[] }) => log.items.map((r) => Number(String(r.id).slice(4)));
    expect(ids(await logOf(t, '?status=404'))).toEqual([3]);
    expect(ids(await logOf(t, '?status=4xx'))).toEqual([6, 3]);
    expect(ids(await logOf(t, '?status=2xx'))).toEqual([7, 5, 4, 2, 1]);
    expect((await logOf(t, '?status=5xx')).total).toBe(0);
    expect(ids(await logOf(t, `?path=${encodeURIComponent(`/v1/wallets/${wallet.id}`)}`))).toEqual([7, 6, 2]);
    expect(ids(await logOf(t, '?path=/sandbox/'))).toEqual([4]);
    // The clock moved an hour at the fourth request (which arrived before it moved): since is on the developer's clock.
    expect(ids(await logOf(t, '?since=2026-11-21T10:30:00Z'))).toEqual([7, 6, 5]);
    expect(ids(await logOf(t, '?idempotency_key=k-1'))).toEqual([5]);
    expect(await logOf(t, '?status=4xx&path=/v1/wallets/nope')).toMatchObject({
      total: 1,
      items: [{ code: 'NOT_FOUND' }],
    });
    const second = await logOf(t, '?limit=2&page=2');
    expect([ids(second), second.total, second.page, second.limit]).toEqual([[5, 4], 7, 2, 2]);
    expect(ids(await logOf(t, '?limit=2&order=asc'))).toEqual([1, 2]);
    for (const [query, field] of [
      ['status=4xy', 'status'],
      ['status=600', 'status'],
      ['path=v1', 'path'],
      ['since=yesterday', 'since'],
      ['order=newest', 'order'],
      ['limit=101', 'limit'],
      ['colour=red', 'colour'],
    ]) {
      const r = await t.call('GET', `/sandbox/requests?${query}`);
      expect([
        query,
        r.status,
        r.body.detail.code,
        r.body.detail.fields.map((f: { field: string }) => f.field),
      ]).toEqual([query, 400, 'VALIDATION_ERROR', [field]]);
    }
    // Refused reads of the log are not in it either.
    expect((await logOf(t)).total).toBe(7);
  });

  it('flags an idempotent replay, whose body keeps the first request id while its header has its own', async () => {
    const wallet = await createWallet(t, 100);
    const send = () =>
      t.call(
        'POST',
        `/v1/wallets/${wallet.id}/transfer`,
        { destination_account_number: '2222222222', destination_bank_code: '058', amount: 5_000 },
        { headers: { 'idempotency-key': 'once' } },
      );
    const first = await send();
    const again = await send();
    expect([first.status, first.headers['request-id'], first.body.detail.request_id]).toEqual([
      422,
      'req_00000004',
      'req_00000004',
    ]);
    expect([again.status, again.headers['idempotent-replayed'], again.headers['request-id'], again.body]).toEqual([
      422,
      'true',
      'req_00000005',
      first.body,
    ]);
    expect(
      (await logOf(t, '?idempotency_key=once')).items.map((r) => [
        r.id,
        r.status,
        r.code,
        r.replayed,
        r.idempotency_key,
      ]),
    ).toEqual([
      ['req_00000005', 422, 'INSUFFICIENT_FUNDS', true, 'once'],
      ['req_00000004', 422, 'INSUFFICIENT_FUNDS', false, 'once'],
    ]);
  });

  it('never keeps an API key, a webhook secret or a credential in a failed request’s body or path', async () => {
    const secret = (await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret as string;
    const tail = t.key.slice('svc_test_'.length);
    await t.call('POST', '/v1/wallets', {
      ...walletBody(),
      api_key: t.key,
      nested: { note: `my secret is ${secret}`, password: 'hunter2', keys: [t.key] },
    });
    await t.call('POST', '/v1/wallets', `{"token": "hunter2", "note": "${t.key}", `, {
      headers: { 'content-type': 'application/json' },
    });
    await t.call('GET', `/sandbox/clock?api_key=${t.key}`);
    const log = await logOf(t);
    expect(log.items.map((r) => [r.status, r.code])).toEqual([
      [400, 'VALIDATION_ERROR'],
      [400, 'INVALID_JSON'],
      [400, 'VALIDATION_ERROR'],
      [200, null],
    ]);
    const text = JSON.stringify(log);
    expect(text).not.toContain(tail);
    expect(text).not.toContain(secret.slice('whsec_'.length));
    expect(text).not.toContain('hunter2');
    expect(log.items[0]!.path).toBe('/sandbox/clock?api_key=svc_test_[redacted]');
    expect(JSON.parse(log.items[2]!.request_body as string)).toMatchObject({
      api_key: '[redacted]',
      nested: { note: 'my secret is whsec_[redacted]', password: '[redacted]', keys: ['svc_test_[redacted]'] },
    });
    // A body that does not parse is kept as text, redacted alike.
    expect(log.items[1]!.request_body).toBe('{"token": "[redacted]", "note": "svc_test_[redacted]", ');
  });

  it("answers 404 NOT_FOUND to another developer's request id and to one that is not an id", async () => {
    await t.call('GET', '/v1/wallets/nope');
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Acme Pay' })).body.data.api_key;
    // The other developer's first request has the same id as the owner's first: each sees only its own.
    const theirs = await t.call('GET', '/sandbox/requests/req_00000001', undefined, { key: other });
    expect([theirs.status, theirs.body.detail.code, theirs.body.detail.message]).toEqual([
      404,
      'NOT_FOUND',
      'request not found',
    ]);
    await t.call('GET', '/v1/wallets/theirs', undefined, { key: other });
    const mine = await t.call('GET', '/sandbox/requests/req_00000001');
    expect([mine.status, mine.body.data.path]).toEqual([200, '/v1/wallets/nope']);
    expect((await logOf(t, '', other)).items.map((r) => r.path)).toEqual(['/v1/wallets/theirs']);
    for (const id of ['req_00000099', 'req_anon_00000001', 'nope'])
      expect((await t.call('GET', `/sandbox/requests/${id}`)).status).toBe(404);
  });
});

describe('the request log’s retention', () => {
  it("keeps the newest rows of each developer, dropping the oldest, and leaves another developer's rows alone", async () => {
    const t = await createTestSandbox({ requestLogKeep: 5 });
    onTestFinished(() => t.close());
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Acme Pay' })).body.data.api_key;
    for (let i = 0; i < 3; i++) await t.call('GET', `/v1/wallets/other-${i}`, undefined, { key: other });
    // Past two blocks of request numbers (a server takes 100 at a time): the ids run on without a gap.
    const ids: string[] = [];
    for (let i = 0; i < 230; i++)
      ids.push((await t.call('GET', `/v1/wallets/mine-${i}`)).headers['request-id'] as string);
    expect(ids).toEqual(Array.from({ length: 230 }, (_, i) => `req_${String(i + 2).padStart(8, '0')}`));
    const mine = await logOf(t);
    expect([mine.total, mine.items.map((r) => r.path)]).toEqual([
      5,
      [
        '/v1/wallets/mine-229',
        '/v1/wallets/mine-228',
        '/v1/wallets/mine-227',
        '/v1/wallets/mine-226',
        '/v1/wallets/mine-225',
      ],
    ]);
    expect((await t.call('GET', '/sandbox/requests/req_00000226')).status).toBe(404);
    expect((await logOf(t, '', other)).items.map((r) => r.id)).toEqual([
      'req_00000003',
      'req_00000002',
      'req_00000001',
    ]);
  });
});

describe('requests the request log leaves out or files apart', () => {
  it("logs a request the dashboard marks 'dashboard' under that source, and none it marks 'none'", async () => {
    const t = await createTestSandbox();
    onTestFinished(() => t.close());
    // The dashboard's own app sets logAs in its auth (not here yet): a second app on the same sandbox stands in.
    const app = Fastify();
    installErrorHandling(app, () => {});
    installAuth(app, t.sandbox, createSessions(Date.now));
    installRequestIds(app, t.sandbox);
    installRequestLog(app, t.sandbox);
    app.addHook('onRequest', (request, _reply, next) => {
      const as = request.headers['x-log-as'];
      if (as === 'dashboard' || as === 'none') request.logAs = as;
      next();
    });
    app.get('/v1/ping', async () => ({ success: true, data: 'pong' }));
    onTestFinished(() => app.close());
    const headers = (as: string) => ({ 'x-api-key': t.key, 'x-log-as': as });
    const read = await app.inject({ method: 'GET', url: '/v1/ping', headers: headers('none') });
    const write = await app.inject({ method: 'GET', url: '/v1/ping', headers: headers('dashboard') });
    await app.requestLog.flush();
    expect([read.headers['request-id'], write.headers['request-id']]).toEqual(['req_00000001', 'req_00000002']);
    expect((await logOf(t)).items.map((r) => [r.id, r.source])).toEqual([['req_00000002', 'dashboard']]);
  });
});
