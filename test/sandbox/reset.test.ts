import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutForeignKeys } from '../../src/engine/db/sqlite/open.js';
import { beginReset, resetChunk } from '../../src/engine/reset/reset.service.js';
import { startServer } from '../../src/sandbox/server.js';
import { bulkTransfers } from '../helpers/bulk-ledger.js';
import { createTestSandbox, createWallet, TEST_BACKEND, type TestSandbox } from '../helpers/sandbox.js';
import { developerWithHangingEndpoint, within } from '../helpers/webhook-app.js';

/** A reset removes a developer's rows in chunks (sandbox/reset.ts); these are the edges of doing it that way. */
let dir: string;
let t: TestSandbox;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-reset-'));
  t = await createTestSandbox({ dbPath: join(dir, 'reset.db'), listen: true });
});
afterEach(async () => {
  await t.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function populate() {
  const a = await createWallet(t, 50_000);
  const b = await createWallet(t);
  for (let i = 0; i < 30; i++)
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 100 });
  await t.app.scheduler.runDue(t.developerId);
  return { a, b };
}

describe('while a developer is held (its reset runs)', () => {
  it('its requests wait before they start, and run once it is released; other developers are not held', async () => {
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data;
    const release = t.sandbox.hold(t.developerId);
    let answered = false;
    const mine = t.call('GET', '/sandbox/clock').then((r) => {
      answered = true;
      return r;
    });
    expect((await t.call('GET', '/sandbox/clock', undefined, { key: other.api_key })).status).toBe(200);
    await turns(20);
    expect(answered).toBe(false);
    release();
    expect((await mine).status).toBe(200);
  });
});

describe('a reset while one of its delivery attempts is out to an endpoint that never answers', () => {
  it('aborts an attempt in flight, answers while the endpoint still holds it, and writes nothing of it', async () => {
    // An attempt left alone would wait 600 s: a reset that waits for it cannot answer in the bound below.
    const s = await createTestSandbox({ webhookTimeoutSeconds: 600 });
    const b = await developerWithHangingEndpoint(s);
    try {
      const advancing = s.call('POST', '/sandbox/clock/advance', { seconds: 1 }, { key: b.key });
      await vi.waitFor(() => expect(b.endpoint.received).toHaveLength(1));

      const reset = await within(s.call('POST', '/sandbox/reset', undefined, { key: b.key }), 10_000);
      expect(reset === 'still waiting' ? reset : reset.status).toBe(200);
      await vi.waitFor(() => expect(b.endpoint.abandoned).toEqual([b.endpoint.received[0]!.id]));
      expect((await advancing).status).toBe(200);
      expect((await s.call('GET', '/v1/webhook-logs', undefined, { key: b.key })).body.data.total).toBe(0);
      expect((await s.call('GET', '/sandbox/audit', undefined, { key: b.key })).body.data.ok).toBe(true);

      // Its next delivery goes out as any other: one attempt, answered.
      const wallet = (
        await s.call(
          'POST',
          '/v1/wallets',
          { customer_reference: 'b-2', first_name: 'Bola', last_name: 'Ade', email: 'bola@example.com' },
          { key: b.key },
        )
      ).body.data;
      await s.call(
        'POST',
        '/sandbox/inbound-transfers',
        { account_number: wallet.account_number, amount: 700 },
        { key: b.key },
      );
      await s.call('POST', '/sandbox/clock/advance', { seconds: 1 }, { key: b.key });
      const [log] = (await s.call('GET', '/v1/webhook-logs', undefined, { key: b.key })).body.data.items;
      expect(log).toMatchObject({ status: 'DELIVERED', attempt_count: 1 });
      expect(
        (await s.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`, undefined, { key: b.key })).body.data.items,
      ).toHaveLength(1);
    } finally {
      await b.endpoint.close();
      await s.close();
    }
  });
});

describe('a reset that a stopped sandbox left half done', () => {
  it('is finished by the next start before the developer is served again', async () => {
    await populate();
    const { sandbox } = t;
    const progress = await sandbox.write((trx) => beginReset(trx, t.developerId));
    for (let i = 0; i < 4; i++)
      await sandbox.exclusive(() =>
        withoutForeignKeys(sandbox.db, () =>
          sandbox.db.transaction().execute((trx) => resetChunk(trx, t.developerId, progress, 10, [])),
        ),
      );
    await t.stop();

    const server = await startServer({ dbPath: join(dir, 'reset.db'), host: '127.0.0.1', port: 0, log: () => {} });
    try {
      const report = await fetch(`${server.baseUrl}/sandbox/audit`, { headers: { 'x-api-key': server.apiKey! } }).then(
        (r) => r.json() as Promise<{ data: any }>,
      );
      expect(report.data).toMatchObject({
        ok: true,
        checked: { wallets: 0, transactions: 0, events: 0, webhook_logs: 0, accounts: 4 },
      });
      const wallets = await fetch(`${server.baseUrl}/sandbox/wallets`, {
        headers: { 'x-api-key': server.apiKey! },
      }).then((r) => r.json() as Promise<{ data: any }>);
      expect(wallets.data.total).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('money that another developer sends to a developer being reset', () => {
  it('leaves the sandbox, as it would once the reset has removed the wallet', async () => {
    const payer = (await t.call('POST', '/sandbox/developers', { business_name: 'Payer' })).body.data;
    const asPayer = (method: string, url: string, body?: unknown) => t.call(method, url, body, { key: payer.api_key });
    const target = await createWallet(t);
    const from = (
      await asPayer('POST', '/v1/wallets', {
        customer_reference: 'payer',
        first_name: 'P',
        last_name: 'Y',
        email: 'p@y.ng',
      })
    ).body.data;
    await asPayer('POST', '/sandbox/inbound-transfers', { account_number: from.account_number, amount: 100_000 });
    const payout = await asPayer('POST', `/v1/wallets/${from.id}/transfer`, {
      destination_account_number: target.account_number,
      destination_bank_code: '035',
      amount: 20_000,
    });
    expect(payout.body.data.status).toBe('PENDING');

    await t.sandbox.db
      .insertInto('settings')
      .values({ key: `reset_pending:${t.developerId}`, value: '1' })
      .execute();
    await asPayer('POST', '/sandbox/clock/advance', { seconds: 5 });
    await t.sandbox.db.deleteFrom('settings').where('key', '=', `reset_pending:${t.developerId}`).execute();

    expect((await asPayer('GET', `/v1/transactions/${payout.body.data.transaction_id}`)).body.data.status).toBe(
      'SETTLED',
    );
    expect((await t.call('GET', `/v1/wallets/${target.id}`)).body.data.balance).toBe(0);
    expect((await t.call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
  });
});

describe("a reset's chunks", () => {
  /**
   * Resets the developer of `sandbox` after a few transfers, and answers how many of its transactions,
   * events and delivery logs went and how many of them the request thread's own connection removed:
   * a TEMP trigger sees only that connection's deletes, not those of the reset's worker thread.
   */
  async function resetWatched(sandbox: TestSandbox) {
    const a = await createWallet(sandbox, 50_000);
    const b = await createWallet(sandbox);
    for (let i = 0; i < 30; i++)
      await sandbox.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: b.account_number,
        amount: 100,
      });
    await sandbox.app.scheduler.runDue(sandbox.developerId);
    const { db } = sandbox.sandbox;
    await sql`CREATE TEMP TABLE removed_here (name text NOT NULL)`.execute(db);
    for (const table of ['transactions', 'events', 'webhook_logs']) {
      await sql`CREATE TEMP TRIGGER ${sql.raw(`removed_here_${table}`)} AFTER DELETE ON main.${sql.raw(table)}
        BEGIN INSERT INTO removed_here VALUES (${sql.lit(table)}); END`.execute(db);
    }
    const reset = await sandbox.call('POST', '/sandbox/reset');
    expect(reset.status).toBe(200);
    const here = await sql<{
      name: string;
      n: number;
    }>`SELECT name, count(*) AS n FROM removed_here GROUP BY name`.execute(db);
    expect((await sandbox.call('GET', '/sandbox/audit')).body.data).toMatchObject({
      ok: true,
      checked: { wallets: 0, transactions: 0, events: 0, webhook_logs: 0 },
    });
    return { removed: reset.body.data.removed, here: Object.fromEntries(here.rows.map((r) => [r.name, Number(r.n)])) };
  }

  it('run on a worker thread with its own connection on a file: the request thread removes none of the rows', async () => {
    const { removed, here } = await resetWatched(t);
    expect(removed).toMatchObject({ transactions: 61, events: 61, webhook_logs: 61 });
    expect(here).toEqual({});
  });

  // SQLite's ':memory:' and its TEMP triggers: a PostgreSQL reset runs its chunks on the request thread always.
  it.runIf(TEST_BACKEND === 'sqlite')(
    'run on the request thread in memory, where a second connection cannot open the database',
    async () => {
      const memory = await createTestSandbox();
      try {
        const { removed, here } = await resetWatched(memory);
        expect(removed).toMatchObject({ transactions: 61, events: 61, webhook_logs: 61 });
        expect(here).toEqual({ transactions: 61, events: 61, webhook_logs: 61 });
      } finally {
        await memory.close();
      }
    },
  );
});

describe("another developer's writes while a reset's chunks run on the worker", () => {
  it('wait for each chunk in the write queue, never on the database lock, and are answered while the reset runs', async () => {
    const a = await createWallet(t, 5_000);
    await bulkTransfers(t.sandbox, t.developerId, a, await createWallet(t), 5_000);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data;
    const asOther = (method: string, url: string, body?: unknown) => t.call(method, url, body, { key: other.api_key });
    const from = (
      await asOther('POST', '/v1/wallets', {
        customer_reference: 'o1',
        first_name: 'O',
        last_name: 'N',
        email: 'o@n.ng',
      })
    ).body.data;
    const to = (
      await asOther('POST', '/v1/wallets', {
        customer_reference: 'o2',
        first_name: 'O',
        last_name: 'T',
        email: 'o@t.ng',
      })
    ).body.data;
    await asOther('POST', '/sandbox/inbound-transfers', { account_number: from.account_number, amount: 1_000_000 });
    const pay = () =>
      asOther('POST', `/v1/wallets/${from.id}/transfer`, { destination_account_number: to.account_number, amount: 1 });
    const usual = (await pay()).status;
    // A write of the request thread's connection that met the worker's lock would now fail at once
    // (SQLITE_BUSY, a 5xx) instead of blocking the event loop for up to 5 s.
    await sql`PRAGMA busy_timeout = 0`.execute(t.sandbox.db);
    let resetting = true;
    const reset = t.call('POST', '/sandbox/reset').finally(() => (resetting = false));
    const during: number[] = [];
    let paid = 1;
    while (resetting) {
      const status = (await pay()).status;
      paid++;
      if (resetting) during.push(status);
      else expect(status).toBe(usual);
    }
    expect((await reset).status).toBe(200);
    expect(during.length).toBeGreaterThan(2);
    expect(new Set(during)).toEqual(new Set([usual]));
    expect((await asOther('GET', `/v1/wallets/${to.id}`)).body.data.balance).toBe(paid);
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({
      ok: true,
      checked: { wallets: 0, transactions: 0 },
    });
    expect((await asOther('GET', '/sandbox/audit')).body.data.ok).toBe(true);
  });
});

describe('Idempotency-Keys across a reset', () => {
  it('a clock advance or a secret rotation retried with its key after a reset replays: what a reset keeps, its keys keep', async () => {
    const tick = { headers: { 'idempotency-key': 'tick-1' } };
    const rotate = { headers: { 'idempotency-key': 'rotate-1' } };
    const wallet = { headers: { 'idempotency-key': 'wallet-1' } };
    const advanced = await t.call('POST', '/sandbox/clock/advance', { seconds: 60 }, tick);
    const rotated = await t.call('POST', '/sandbox/webhook-endpoint/rotate-secret', undefined, rotate);
    const body = { customer_reference: 'r1', first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com' };
    const created = await t.call('POST', '/v1/wallets', body, wallet);
    expect([advanced.status, rotated.status, created.status]).toEqual([200, 200, 201]);

    expect((await t.call('POST', '/sandbox/reset')).status).toBe(200);

    const again = await t.call('POST', '/sandbox/clock/advance', { seconds: 60 }, tick);
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', advanced.body]);
    expect((await t.call('GET', '/sandbox/clock')).body.data).toEqual({
      now: '2026-11-21T09:31:00.000Z',
      offset_seconds: 60,
    });
    const rotatedAgain = await t.call('POST', '/sandbox/webhook-endpoint/rotate-secret', undefined, rotate);
    expect([rotatedAgain.headers['idempotent-replayed'], rotatedAgain.body]).toEqual(['true', rotated.body]);
    expect((await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret).toBe(rotated.body.data.secret);
    // The wallet went with the reset, and so did its key: the same request makes the wallet again.
    const recreated = await t.call('POST', '/v1/wallets', body, wallet);
    expect([recreated.status, recreated.headers['idempotent-replayed']]).toEqual([201, undefined]);
    expect(recreated.body.data.id).not.toBe(created.body.data.id);
  });

  it('a reset sent twice at once with one key runs once: the duplicate waits and replays it, neither refused nor held up', async () => {
    // The duplicate must not wait for the reset while the reset waits for it.
    await populate();
    const key = { headers: { 'idempotency-key': 'reset-1' } };
    const [first, duplicate] = await Promise.all([
      t.call('POST', '/sandbox/reset', undefined, key),
      t.call('POST', '/sandbox/reset', undefined, key),
    ]);
    expect([
      first.status,
      first.headers['idempotent-replayed'],
      duplicate.status,
      duplicate.headers['idempotent-replayed'],
    ]).toEqual([200, undefined, 200, 'true']);
    expect(duplicate.body).toEqual(first.body);
    expect(first.body.data.removed).toMatchObject({ wallets: 2 });
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
  });
});
