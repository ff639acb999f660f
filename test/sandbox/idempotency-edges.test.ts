import { describe, expect, it } from 'vitest';
import { injectStorageFault } from '../../src/engine/db/sqlite/open.js';
import { createWallet, expectCleanAudit, TEST_BACKEND, useSandbox, walletBody, balanceOf } from '../helpers/sandbox.js';

/** An Idempotency-Key moves money once, at every edge (decisions: Idempotency). */
const t = useSandbox();

const debits = async (id: string) =>
  (await t.call('GET', `/v1/wallets/${id}/transactions?type=DEBIT`)).body.data.total as number;

describe('Idempotency-Key at the edges', () => {
  it('the same key and body sent to a percent-encoded spelling of the path move money once', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    const body = { destination_account_number: b.account_number, amount: 2_500 };
    const headers = { 'idempotency-key': 'spelled-twice' };
    const plain = await t.call('POST', `/v1/wallets/${a.id}/transfer`, body, { headers });
    const encoded = a.id.replace(/[0-9a-f]/, (c: string) => `%${c.charCodeAt(0).toString(16)}`);
    expect(encoded).not.toBe(a.id);
    const spelled = await t.call('POST', `/v1/wallets/${encoded}/transfer`, body, { headers });
    expect(spelled.headers['idempotent-replayed']).toBe('true');
    expect(spelled.body).toEqual(plain.body);
    expect(await balanceOf(t, a.id)).toBe(7_500);
    expect(await debits(a.id)).toBe(1);
  });

  it('50 concurrent duplicates of one key all wait for the first and replay its answer, none refused IDEMPOTENCY_KEY_IN_USE', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    const send = () =>
      t.call(
        'POST',
        `/v1/wallets/${a.id}/transfer`,
        { destination_account_number: b.account_number, amount: 100 },
        { headers: { 'idempotency-key': 'fifty' } },
      );
    const answers = await Promise.all(Array.from({ length: 50 }, send));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
    for (const r of answers) expect(r.body).toEqual(answers[0]!.body);
    expect(await balanceOf(t, a.id)).toBe(9_900);
  });

  it('a duplicate with a different body that arrives while the first runs waits, then gets IDEMPOTENCY_KEY_REUSED', async () => {
    const [first, second] = await Promise.all([
      t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'same-key-1' }), {
        headers: { 'idempotency-key': 'k' },
      }),
      t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'same-key-2' }), {
        headers: { 'idempotency-key': 'k' },
      }),
    ]);
    expect(first.status).toBe(201);
    expect([second.status, second.body.detail.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
  });

  for (const [fault, status, code] of [
    ['full', 507, 'STORAGE_FULL'],
    ['readonly', 503, 'STORAGE_UNAVAILABLE'],
  ] as const) {
    // SQLite's fault injection (sqlite/open.ts): a PostgreSQL server has no disk of the sandbox's to fill.
    it.runIf(TEST_BACKEND === 'sqlite')(
      `on a ${fault} database a failed write releases its key, and the retry runs once`,
      async () => {
        const a = await createWallet(t, 10_000);
        const b = await createWallet(t);
        const send = () =>
          t.call(
            'POST',
            `/v1/wallets/${a.id}/transfer`,
            { destination_account_number: b.account_number, amount: 1_000 },
            { headers: { 'idempotency-key': `disk-${fault}` } },
          );
        injectStorageFault(t.sandbox.db, fault);
        const refused = await send();
        expect([refused.status, refused.body.success, refused.body.detail.code]).toEqual([status, false, code]);
        expect(refused.body.detail.message).toMatch(/nothing was written/);
        injectStorageFault(t.sandbox.db, undefined);
        expect(await balanceOf(t, a.id)).toBe(10_000);
        const retry = await send();
        expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([200, undefined]);
        const again = await send();
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(await balanceOf(t, a.id)).toBe(9_000);
        expect(await debits(a.id)).toBe(1);
        await expectCleanAudit(t);
      },
    );
  }

  it('validates a request before a stored Idempotency-Key replays, on every route: an unknown query parameter or a malformed body is refused', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    const writes: [string, Record<string, unknown> | undefined, Record<string, unknown>][] = [
      [
        '/v1/wallets',
        walletBody({ customer_reference: 'idem-first' }),
        { ...walletBody({ customer_reference: 'idem-first' }), amount: 1 },
      ],
      [
        `/v1/wallets/${a.id}/transfer`,
        { destination_account_number: b.account_number, amount: 100 },
        { destination_account_number: b.account_number, amount: '100' },
      ],
      [
        '/sandbox/inbound-transfers',
        { account_number: b.account_number, amount: 300, narration: 'salary' },
        { account_number: b.account_number, amount: 300, narration: 'salary', extra: true },
      ],
      ['/sandbox/clock/advance', { seconds: 1 }, { seconds: -1 }],
      [`/v1/wallets/${b.id}/close`, undefined, { now: true }],
    ];
    for (const [url, body, malformed] of writes) {
      const headers = { 'idempotency-key': `validated-${url}` };
      const first = await t.call('POST', url, body, { headers });
      expect([url, first.status < 300]).toEqual([url, true]);
      const query = await t.call('POST', `${url}?unexpected=1`, body, { headers });
      expect([url, query.status, query.headers['idempotent-replayed'], query.body.detail?.fields]).toEqual([
        url,
        400,
        undefined,
        [{ field: 'unexpected', message: 'unknown field' }],
      ]);
      const bad = await t.call('POST', url, malformed, { headers });
      expect([url, bad.status, bad.body.detail?.code]).toEqual([url, 400, 'VALIDATION_ERROR']);
      // The well-formed repeat still replays the first answer.
      const again = await t.call('POST', url, body, { headers });
      expect([url, again.status, again.headers['idempotent-replayed'], again.body]).toEqual([
        url,
        first.status,
        'true',
        first.body,
      ]);
    }
    expect(await balanceOf(t, a.id)).toBe(9_900);
  });

  it('compares bodies as JSON values, both ways', async () => {
    // Another key order, number spelling, escape or trailing newline replays; another string (NFD, a
    // space) or an explicit default is another request.
    const a = await createWallet(t, 100_000);
    const b = await createWallet(t);
    const url = `/v1/wallets/${a.id}/transfer`;
    const headers = { 'idempotency-key': 'as-json' };
    const to = b.account_number;
    const first = await t.call(
      'POST',
      url,
      `{"destination_account_number":"${to}","amount":1000,"narration":"caf\u00e9"}`,
      { headers },
    );
    expect(first.status).toBe(200);
    const same = [
      `{"narration":"caf\u00e9","amount":1000,"destination_account_number":"${to}"}`,
      `{"destination_account_number":"${to}","amount":1000.0,"narration":"caf\u00e9"}`,
      `{"destination_account_number":"${to}","amount":1e3,"narration":"caf\u00e9"}`,
      `{"destination_account_number":"${to}","amount":1000,"narration":"caf\\u00e9"}`,
      ` {"destination_account_number":"${to}","amount":1000,"narration":"caf\u00e9"}\n`,
    ];
    for (const body of same) {
      const r = await t.call('POST', url, body, { headers });
      expect([body, r.status, r.headers['idempotent-replayed'], r.body]).toEqual([body, 200, 'true', first.body]);
    }
    const different = [
      `{"destination_account_number":"${to}","amount":1000,"narration":"cafe\u0301"}`,
      `{"destination_account_number":"${to}","amount":1000,"narration":"caf\u00e9 "}`,
      `{"destination_account_number":"${to}","amount":1000,"narration":"caf\u00e9","destination_bank_code":"035"}`,
      `{"destination_account_number":"${to}","amount":1001,"narration":"caf\u00e9"}`,
    ];
    for (const body of different) {
      const r = await t.call('POST', url, body, { headers });
      expect([body, r.status, r.body.detail.code]).toEqual([body, 409, 'IDEMPOTENCY_KEY_REUSED']);
    }
    expect(await balanceOf(t, a.id)).toBe(99_000);
    expect(await debits(a.id)).toBe(1);
  });

  it('5,000-deep JSON with an Idempotency-Key is a 400, not a 500', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const r = await t.call('POST', '/v1/wallets', deep, { headers: { 'idempotency-key': 'deep' } });
    expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
      400,
      'VALIDATION_ERROR',
      [{ field: 'body', message: 'nests objects or arrays deeper than 32 levels' }],
    ]);
  });

  it('key rotation and developer creation refuse Idempotency-Key: their answers hold a key, which is never stored', async () => {
    for (const [url, body] of [
      ['/sandbox/keys/rotate', undefined],
      ['/sandbox/developers', { business_name: 'X' }],
    ] as const) {
      const r = await t.call('POST', url, body, { headers: { 'idempotency-key': 'k' } });
      expect([url, r.status, r.body.detail.fields[0].field]).toEqual([url, 400, 'idempotency-key']);
    }
    // Every stored answer, after every kind of write: none holds a plaintext key.
    const created = (await t.call('POST', '/sandbox/developers', { business_name: 'Y' })).body.data;
    await t.call('POST', '/v1/wallets', walletBody(), { headers: { 'idempotency-key': 'w' } });
    const stored = await t.sandbox.db.selectFrom('idempotency_keys').select('response_body').execute();
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toMatch(/svc_test_/);
    expect(JSON.stringify(stored)).not.toContain(created.api_key);
  });
});

describe('a full disk or a read-only database (decisions: Storage)', () => {
  // SQLite's fault injection, as above.
  it.runIf(TEST_BACKEND === 'sqlite')(
    'every write answers 507 in the documented shape and nothing is half-written; reads still answer',
    async () => {
      const a = await createWallet(t, 10_000);
      const b = await createWallet(t);
      const before = (await t.call('GET', '/sandbox/audit')).body.data.checked;
      injectStorageFault(t.sandbox.db, 'full');
      const writes: [string, string, unknown][] = [
        ['POST', '/v1/wallets', walletBody()],
        ['POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 10 }],
        ['POST', '/sandbox/inbound-transfers', { account_number: a.account_number, amount: 10 }],
        ['POST', `/v1/wallets/${a.id}/agents`, { name: 'x', trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' }],
        ['POST', `/v1/wallets/${b.id}/close`, undefined],
        ['POST', '/sandbox/clock/advance', { seconds: 5 }],
        ['PUT', '/sandbox/webhook-endpoint', { url: 'http://127.0.0.1:9/x' }],
        ['POST', '/sandbox/reset', undefined],
      ];
      for (const [method, url, body] of writes) {
        const r = await t.call(method, url, body);
        expect([method, url, r.status, r.body.detail?.code]).toEqual([method, url, 507, 'STORAGE_FULL']);
      }
      expect((await t.call('GET', `/v1/wallets/${a.id}`)).status).toBe(200);
      injectStorageFault(t.sandbox.db, undefined);
      expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true, checked: before });
      expect((await t.call('GET', '/sandbox/clock')).body.data.offset_seconds).toBe(0);
      expect((await t.call('GET', `/v1/wallets/${b.id}`)).body.data.status).toBe('ACTIVE');
    },
  );
});
