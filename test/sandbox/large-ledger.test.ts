import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkTransfers } from '../helpers/bulk-ledger.js';
import { createTestSandbox, createWallet, type TestSandbox, walletBody } from '../helpers/sandbox.js';

/**
 * Nothing that scales with the data holds up the server. A ledger of 200,000
 * transactions (their events and deliveries too) on a file, and another developer's of 40,000;
 * while the first is audited and the second reset, other requests keep being answered. Judged by
 * counting what was answered meanwhile, and by the event loop's longest stall against the whole
 * operation's time in the same run: work on the request thread stalls it for most of that time,
 * work beside it for a GC pause or a wait for a core. A busy machine stretches both alike, so no
 * fixed bound in milliseconds that it could break.
 */
const TRANSFERS = 100_000;
const OTHER_TRANSFERS = 20_000;
/** The longest event-loop stall stays under this share of the whole operation's time (an audit on the request thread stalls it for all of it). */
const STALL_SHARE = 1 / 4;

let dir: string;
let t: TestSandbox;
let a: { id: string; account_number: string; balance: number };
let other: { key: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-large-'));
  t = await createTestSandbox({ dbPath: join(dir, 'large.db'), listen: true });
  a = await createWallet(t, 1_000_000);
  await bulkTransfers(t.sandbox, t.developerId, a, await createWallet(t), TRANSFERS);
  const created = (await t.call('POST', '/sandbox/developers', { business_name: 'Other Pay' })).body.data;
  other = { key: created.api_key };
  const wallet = async (fund: number) => {
    const w = (await t.call('POST', '/v1/wallets', walletBody(), { key: other.key })).body.data;
    if (fund)
      await t.call(
        'POST',
        '/sandbox/inbound-transfers',
        { account_number: w.account_number, amount: fund },
        { key: other.key },
      );
    return w;
  };
  await bulkTransfers(t.sandbox, created.developer_id, await wallet(1_000_000), await wallet(0), OTHER_TRANSFERS);
}, 180_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `operation` over HTTP and, until it answers, sends `probe` again and again, one at a time.
 * Resolves with the operation's answer, how many probes were answered before it, the longest
 * event-loop stall meanwhile, and the operation's whole time.
 */
async function whileRunning(operation: () => Promise<Response>, probe: () => Promise<Response>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  let finished = false;
  const answer = operation().then(async (response) => {
    finished = true;
    return { status: response.status, body: (await response.json()) as { data: any } };
  });
  let probes = 0;
  while (!finished) {
    const response = await probe();
    const text = await response.text();
    expect(response.status, text).toBeLessThan(300);
    if (!finished) probes++;
  }
  histogram.disable();
  return { answer: await answer, probes, longestStallMs: histogram.max / 1e6, tookMs: performance.now() - started };
}

const as = (key: string, method = 'GET', body?: unknown) => ({
  method,
  headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
  ...(body ? { body: JSON.stringify(body) } : {}),
});

describe(`a ledger of ${(2 * TRANSFERS).toLocaleString('en')} transactions`, () => {
  it('is audited on a worker thread: health probes are answered while the audit runs', async () => {
    const { answer, probes, longestStallMs, tookMs } = await whileRunning(
      () => fetch(`${t.baseUrl}/sandbox/audit`, as(t.key)),
      () => fetch(`${t.baseUrl}/sandbox/health`),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ ok: true, problems: [] });
    expect(answer.body.data.checked).toMatchObject({
      transactions: 2 * TRANSFERS + 1,
      events: 2 * TRANSFERS + 1,
      webhook_logs: 2 * TRANSFERS + 1,
    });
    expect(probes).toBeGreaterThanOrEqual(3);
    expect(longestStallMs).toBeLessThan(tookMs * STALL_SHARE);
  }, 120_000);

  it('lists its newest, oldest and middle webhook logs through the index, with totals from the counters', async () => {
    const list = async (query: string) => (await t.call('GET', `/v1/webhook-logs?${query}`)).body.data;
    const newest = await list('order=desc&limit=100');
    const last = await list(`page=${(2 * TRANSFERS) / 100 + 1}&limit=100`);
    expect(newest.total).toBe(2 * TRANSFERS + 1);
    expect(last.items.map((l: { id: string }) => l.id)).toEqual(
      newest.items
        .slice(0, last.items.length)
        .map((l: { id: string }) => l.id)
        .reverse(),
    );
    expect((await list('status=DELIVERED&event_type=ledger.debit&limit=1')).total).toBe(TRANSFERS);
  });

  it('a developer of 40,000 is reset in chunks: another developer is served meanwhile, and the space goes back to the file system', async () => {
    const pages = async () =>
      Number((await sql<{ page_count: number }>`PRAGMA page_count`.execute(t.sandbox.db)).rows[0]!.page_count);
    const before = await pages();
    let credits = 0;
    const { answer, probes, longestStallMs, tookMs } = await whileRunning(
      () => fetch(`${t.baseUrl}/sandbox/reset`, as(other.key, 'POST')),
      async () => {
        credits++;
        return fetch(
          `${t.baseUrl}/sandbox/inbound-transfers`,
          as(t.key, 'POST', { account_number: a.account_number, amount: 100, narration: 'salary' }),
        );
      },
    );
    expect(answer.status).toBe(200);
    const rows = 2 * OTHER_TRANSFERS + 1;
    expect(answer.body.data.removed).toMatchObject({
      transactions: rows,
      entries: rows + 1,
      events: rows,
      webhook_logs: rows,
      wallets: 2,
    });
    expect(probes).toBeGreaterThanOrEqual(3);
    expect(longestStallMs).toBeLessThan(tookMs * STALL_SHARE);

    const theirs = (await t.call('GET', '/sandbox/audit', undefined, { key: other.key })).body.data;
    expect(theirs).toMatchObject({ ok: true, checked: { wallets: 0, transactions: 0, events: 0, webhook_logs: 0 } });
    const mine = await t.call('GET', `/v1/wallets/${a.id}`);
    expect(mine.body.data.balance).toBe(a.balance - TRANSFERS + 100 * credits);
    const after = await pages();
    // Their rows were about a sixth of the file.
    expect(after).toBeLessThan(before * 0.95);
    expect(
      Number(
        (await sql<{ freelist_count: number }>`PRAGMA freelist_count`.execute(t.sandbox.db)).rows[0]!.freelist_count,
      ),
    ).toBe(0);
  }, 180_000);
});
