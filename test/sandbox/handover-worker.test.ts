import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSandbox, createWallet, type TestSandbox } from '../helpers/sandbox.js';

// On a database file, without a seed (as `ledger sandbox start` runs), the deliveries kept in memory
// since their write committed are handed to the built-in receiver by a worker thread with its own
// connection (handover.ts, dispatcher.ts `handOverOffThread`), between two batches of the request
// thread's writes. These tests hold it to what the request-thread handover does, and show that the
// request thread keeps answering while the worker's write waits for the database.

let dir: string;
let t: TestSandbox | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function fileSandbox(): Promise<TestSandbox> {
  dir = mkdtempSync(join(tmpdir(), 'ledger-handover-'));
  t = await createTestSandbox({ dbPath: join(dir, 'ledger.db'), seed: null, listen: true });
  return t;
}

interface Log {
  id: string;
  status: string;
  attempt_count: number;
  http_status_code: number | null;
}

const logs = async (s: TestSandbox) => (await s.call('GET', '/v1/webhook-logs?limit=100')).body.data.items as Log[];
const received = async (s: TestSandbox) => (await s.call('GET', '/sandbox/receiver/events?limit=100')).body.data.items as { webhook_id: string; response_status: number }[];

async function transfers(s: TestSandbox, n: number) {
  const a = await createWallet(s, 1_000_000);
  const b = await createWallet(s);
  for (let i = 0; i < n; i++) {
    expect((await s.call('POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 100 + i })).status).toBe(200);
  }
  return { a, b };
}

/** Notes when the dispatcher asks the group commit for a turn of its own (the worker's handover). */
function watchExclusive(s: TestSandbox): { started: () => boolean; called: Promise<void> } {
  const exclusive = s.sandbox.exclusive;
  let started = false;
  let called!: () => void;
  const watched = { started: () => started, called: new Promise<void>((resolve) => (called = resolve)) };
  s.sandbox.exclusive = (work) => {
    started = true;
    called();
    return exclusive(work);
  };
  return watched;
}

describe('deliveries handed over on a worker thread', () => {
  it('delivers each once, keeps the receiver record beside each attempt, and uses up an injected failure', async () => {
    const s = await fileSandbox();
    const watched = watchExclusive(s);
    expect((await s.call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 2 })).status).toBe(200);
    await transfers(s, 6);
    await s.app.scheduler.runDue(s.developerId);
    expect(watched.started()).toBe(true);

    const all = await logs(s);
    expect(all.length).toBeGreaterThan(12);
    // The first two answered 503 (due again later), every other one delivered at its first attempt.
    expect(all.filter((l) => l.status === 'FAILED').map((l) => [l.attempt_count, l.http_status_code])).toEqual([
      [1, 503],
      [1, 503],
    ]);
    expect(all.filter((l) => l.status === 'DELIVERED')).toHaveLength(all.length - 2);
    expect(all.every((l) => l.attempt_count === 1)).toBe(true);
    // One record per delivery, none twice, with the status it was answered.
    const got = await received(s);
    expect(new Set(got.map((r) => r.webhook_id)).size).toBe(all.length);
    expect(got.filter((r) => r.response_status === 503)).toHaveLength(2);
    expect((await s.call('GET', '/sandbox/receiver/behaviour')).body.data).toMatchObject({ status: 503, remaining: 0 });
    // Attempts as recorded: one each, through the API.
    const [first] = all;
    const attempts = (await s.call('GET', `/sandbox/webhook-logs/${first!.id}/attempts`)).body.data.items as { attempt_number: number }[];
    expect(attempts.map((x) => x.attempt_number)).toEqual([1]);
  });

  it('leaves the request thread answering while the worker waits for the database, and queues its writes behind it', async () => {
    const s = await fileSandbox();
    const { a, b } = await transfers(s, 3);
    const watched = watchExclusive(s);
    // Another connection holds the write lock: the worker's handover waits for it (its busy timeout).
    const other = new SQLite(join(dir, 'ledger.db'));
    other.exec('BEGIN IMMEDIATE');
    let handedOver = false;
    const handover = s.app.scheduler.runDue(s.developerId).then(() => (handedOver = true));
    await watched.called;
    // The group commit has given the worker its turn: a transfer's write waits for it, without blocking.
    let transferred = false;
    const transfer = s.call('POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 1 }).then((r) => {
      transferred = true;
      return r;
    });
    let answered = 0;
    for (let i = 0; i < 25; i++) {
      const reply = await s.call('GET', `/v1/wallets/${a.id}`);
      if (reply.status === 200) answered++;
    }
    // Had the handover's write run on the request thread, its wait for the lock would have held
    // every one of these answers back until the lock was given up.
    expect(answered).toBe(25);
    expect(handedOver).toBe(false);
    expect(transferred).toBe(false);
    other.exec('ROLLBACK');
    other.close();
    await handover;
    expect((await transfer).status).toBe(200);
    await s.app.scheduler.runDue(s.developerId);
    const all = await logs(s);
    expect(all.every((l) => l.status === 'DELIVERED' && l.attempt_count === 1)).toBe(true);
    expect(new Set((await received(s)).map((r) => r.webhook_id)).size).toBe(all.length);
  });

  it("keeps each developer's lane: a few deliveries of one are not held up behind the backlog of another", async () => {
    const s = await fileSandbox();
    const b = (await s.call('POST', '/sandbox/developers', { business_name: 'Bee Pay' })).body.data as { api_key: string; developer_id: string };
    const asB = (method: string, url: string, body?: unknown) => s.call(method, url, body, { key: b.api_key });
    const bWallet = (await asB('POST', '/v1/wallets', { customer_reference: 'bee', first_name: 'Bee', last_name: 'Pay', email: 'bee@example.com' })).body.data;
    // 256 deliveries of B's: four handovers of 64.
    for (let i = 0; i < 256; i++) expect((await asB('POST', '/sandbox/inbound-transfers', { account_number: bWallet.account_number, amount: 100 + i })).status).toBe(200);
    await createWallet(s, 5_000);
    let aDone = false;
    let bDoneFirst = false;
    const bDue = s.app.scheduler.runDue(b.developer_id).then(() => (bDoneFirst = !aDone));
    const aDue = s.app.scheduler.runDue(s.developerId).then(() => (aDone = true));
    await Promise.all([aDue, bDue]);
    // A's handover took its turn between B's, instead of after all of them.
    expect(bDoneFirst).toBe(false);
    expect((await logs(s)).map((l) => l.status)).toEqual(['DELIVERED']);
    const bLogs = (await asB('GET', '/v1/webhook-logs?limit=1&status=DELIVERED')).body.data.total;
    expect(bLogs).toBe(256);
    expect((await asB('GET', '/sandbox/receiver/events?limit=1')).body.data.total).toBe(256);
  });

  it('is waited for when the server stops: nothing half-written, nothing lost, the thread ended', async () => {
    const s = await fileSandbox();
    await transfers(s, 4);
    const watched = watchExclusive(s);
    const handover = s.app.scheduler.runDue(s.developerId);
    await watched.called;
    await s.stop();
    await handover;
    const db = new SQLite(join(dir, 'ledger.db'), { readonly: true });
    try {
      const statuses = db.prepare('SELECT status, attempt_count, COUNT(*) AS n FROM webhook_logs GROUP BY 1, 2').all();
      const logsCount = (db.prepare('SELECT COUNT(*) AS n FROM webhook_logs').get() as { n: number }).n;
      const keptCount = (db.prepare('SELECT COUNT(*) AS n FROM receiver_events').get() as { n: number }).n;
      const attemptsCount = (db.prepare('SELECT COUNT(*) AS n FROM webhook_attempts').get() as { n: number }).n;
      expect(statuses).toEqual([{ status: 'DELIVERED', attempt_count: 1, n: logsCount }]);
      expect(keptCount).toBe(logsCount);
      expect(attemptsCount).toBe(logsCount);
    } finally {
      db.close();
    }
    t = undefined;
  });
});
