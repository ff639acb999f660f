import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/engine/db/database.js';
import {
  INTERRUPTED_BY_SNAPSHOT,
  INTERRUPTED_BY_STOP,
  recordInterruptedAttempts,
} from '../../src/engine/events/interrupted-attempts.js';
import {
  type AttemptResult,
  beginAttempts,
  finishAttempt,
  type WebhookLogRow,
} from '../../src/engine/events/webhooks.service.js';
import {
  createTestSandbox,
  createWallet,
  expectCleanAudit,
  logsWithPayload,
  T0,
  type TestSandbox,
} from '../helpers/sandbox.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

// An attempt is counted before it is sent and gets its row with its outcome. A process killed while
// one is out, or a snapshot saved while one is, leaves a log counting an attempt it has no row for:
// where such a database is taken into a server (start, restore), that attempt gets its row.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-interrupted-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const URL = 'http://127.0.0.1:1/hooks';
const answered = (httpStatus: number, manual = false): AttemptResult => ({
  url: URL,
  httpStatus,
  responseBody: 'answer',
  error: null,
  durationMs: 7,
  manual,
});

/** The attempts list of a log as the API answers it, the fields a support person reads. */
async function attempts(t: TestSandbox, log: WebhookLogRow) {
  const listed = await t.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`);
  expect(listed.status).toBe(200);
  return listed.body.data.items.map(
    (a: {
      attempt_number: number;
      http_status_code: number | null;
      manual: boolean;
      error: string | null;
      url: string;
      duration_ms: number;
      created_at: string;
    }) => [a.attempt_number, a.http_status_code, a.manual, a.error],
  );
}

describe('attempts whose outcome was never recorded', () => {
  it("a stopped process's database: each counted attempt without a row gets one, once", async () => {
    // Logs, delivered attempts and complete ones are left as they are.
    const path = join(dir, 'ledger.db');
    const t = await createTestSandbox({ dbPath: path });
    await expectCleanAudit(t);
    const { developerId } = t;
    const endpoint = await t.call('PUT', '/sandbox/webhook-endpoint', { url: URL });
    expect(endpoint.status).toBe(200);
    for (let i = 0; i < 7; i++) await createWallet(t, 1_000 + i);
    const logs = await logsWithPayload(t, 'ledger.credit');
    expect(logs).toHaveLength(7);
    /**
     * Begins an attempt of the log as it is now, `seconds` after T0 on the sandbox clock (the
     * schedule begins one once due), and records `result` for it unless null (the process dies
     * while it is out).
     */
    const attempt = async (
      log: WebhookLogRow,
      seconds: number,
      result: AttemptResult | null,
      manual = false,
    ): Promise<void> => {
      const env = { ...t.sandbox.envFor(developerId), clock: { now: () => new Date(T0 + seconds * 1000) } };
      const current = (await logsWithPayload(t, 'ledger.credit')).find((l) => l.id === log.id)!;
      const [begun] = await t.sandbox.write((trx) => beginAttempts(trx, env, [current], manual));
      if (result) await t.sandbox.write((trx) => finishAttempt(trx, env, begun!, result));
    };
    const [pending, failed, retried, dead, gone, older, delivered] = logs as [
      WebhookLogRow,
      WebhookLogRow,
      WebhookLogRow,
      WebhookLogRow,
      WebhookLogRow,
      WebhookLogRow,
      WebhookLogRow,
    ];
    // Its first attempt out.
    await attempt(pending, 0, null);
    // A failed first attempt, then the schedule's second (5 s later) out.
    await attempt(failed, 0, answered(500));
    await attempt(failed, 5, null);
    // A failed first attempt, then a retry by hand out, before the schedule's second was due.
    await attempt(retried, 0, answered(500));
    await attempt(retried, 1, null, true);
    // Eight failed attempts (DEAD), each when due, then a retry by hand out.
    for (let i = 0; i < 8; i++) await attempt(dead, i * 36_000, answered(500));
    await attempt(dead, 8 * 36_000, null, true);
    // 410 (DEAD at once), then a retry by hand out.
    await attempt(gone, 0, answered(410));
    await attempt(gone, 0, null, true);
    // What an older version left: its first attempt out, the next made after the restart.
    await attempt(older, 0, null);
    await attempt(older, 5, answered(503));
    await attempt(delivered, 0, answered(200));
    await t.stop();

    // Started again on the file as the process left it.
    const again = await createTestSandbox({ dbPath: path });
    try {
      const stopped = INTERRUPTED_BY_STOP;
      expect(await attempts(again, pending)).toEqual([[1, null, false, stopped]]);
      expect(await attempts(again, failed)).toEqual([
        [1, 500, false, null],
        [2, null, false, stopped],
      ]);
      expect(await attempts(again, retried)).toEqual([
        [1, 500, false, null],
        [2, null, true, stopped],
      ]);
      expect(await attempts(again, dead)).toEqual([
        ...Array.from({ length: 8 }, (_, i) => [i + 1, 500, false, null]),
        [9, null, true, stopped],
      ]);
      expect(await attempts(again, gone)).toEqual([
        [1, 410, false, null],
        [2, null, true, stopped],
      ]);
      // In the order made, though its row was written after the next one's.
      expect(await attempts(again, older)).toEqual([
        [1, null, false, stopped],
        [2, 503, false, null],
      ]);
      expect(await attempts(again, delivered)).toEqual([[1, 200, false, null]]);
      // The interrupted row: the endpoint it went to, no answer, no duration, at the time the sandbox found it.
      const [row] = (await again.call('GET', `/sandbox/webhook-logs/${pending.id}/attempts`)).body.data.items;
      expect(row).toMatchObject({
        url: URL,
        response_body: null,
        duration_ms: 0,
        created_at: new Date(T0).toISOString(),
      });
      // The logs keep what they said: status, count and the last answer they had.
      const shown = async (log: WebhookLogRow) => {
        const { status, attempt_count, http_status_code } = (await again.call('GET', `/sandbox/webhook-logs/${log.id}`))
          .body.data;
        return [status, attempt_count, http_status_code];
      };
      expect(await Promise.all([pending, failed, retried, dead, gone, older, delivered].map(shown))).toEqual([
        ['PENDING', 1, null],
        ['FAILED', 2, 500],
        ['FAILED', 2, 500],
        ['DEAD', 9, 500],
        ['DEAD', 2, 410],
        ['FAILED', 2, 503],
        ['DELIVERED', 1, 200],
      ]);
      await expectCleanAudit(again);
      // Done once: found again, nothing is added.
      expect(
        await again.sandbox.write((trx) => recordInterruptedAttempts(trx, INTERRUPTED_BY_STOP, () => new Date(T0))),
      ).toBe(0);
      // It runs at every start: it reads the index of undelivered logs (empty when all are
      // delivered), never the whole table, and counts each one's attempts in their index.
      const raw = new SQLite(path, { readonly: true });
      const queries: CompiledQuery[] = [];
      const db = new Kysely<Database>({
        dialect: new SqliteDialect({ database: raw }),
        log: (event) => void queries.push(event.query),
      });
      try {
        expect(
          await db
            .transaction()
            .execute((trx) => recordInterruptedAttempts(trx, INTERRUPTED_BY_STOP, () => new Date(T0))),
        ).toBe(0);
        const select = queries.find((q) => /^\s*select/i.test(q.sql))!;
        const plan = (
          raw.prepare(`EXPLAIN QUERY PLAN ${select.sql}`).all(...(select.parameters as unknown[])) as {
            detail: string;
          }[]
        ).map((r) => r.detail);
        expect(plan).toEqual([
          'SCAN l USING INDEX webhook_logs_developer_status',
          'CORRELATED SCALAR SUBQUERY 1',
          'SEARCH a USING COVERING INDEX webhook_attempts_log (log_seq=?)',
          'SEARCH d USING INDEX developers_seq (seq=?)',
        ]);
      } finally {
        await db.destroy();
      }
    } finally {
      await again.close();
    }
  });

  it('an attempt out in a live server is left alone; a snapshot restored lists it as interrupted', async () => {
    // A snapshot saved meanwhile does not mark it, and the attempt records its own outcome.
    const path = join(dir, 'ledger.db');
    const t = await createTestSandbox({ dbPath: path, listen: true, webhookTimeoutSeconds: 30 });
    // The first attempt fails; the second is held until the endpoint goes away.
    const app = await startWebhookApp(
      () => '',
      (n) => (n === 1 ? 500 : 'hang'),
    );
    let closed = false;
    try {
      expect((await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url })).status).toBe(200);
      await createWallet(t, 5_000);
      expect((await t.call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
      const [log] = await logsWithPayload(t, 'ledger.credit');
      expect(log!.status).toBe('FAILED');
      // A clock walk makes the second attempt (5 s later) and waits for it.
      const walking = t.call('POST', '/sandbox/clock/advance', { seconds: 10 });
      while (app.received.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      // Out: counted, no row yet, and nothing marks it, a snapshot saved meanwhile neither.
      expect((await t.call('GET', `/sandbox/webhook-logs/${log!.id}`)).body.data.attempt_count).toBe(2);
      expect(await attempts(t, log!)).toEqual([[1, 500, false, null]]);
      expect((await t.call('POST', '/sandbox/snapshots', { name: 'mid-attempt' })).status).toBe(200);
      expect(await attempts(t, log!)).toEqual([[1, 500, false, null]]);
      closed = true;
      await app.close();
      // Its own outcome is recorded (the endpoint went away: no status code, the error it met).
      expect((await walking).status).toBe(200);
      const live = await attempts(t, log!);
      expect(live.map((a: unknown[]) => a.slice(0, 3))).toEqual([
        [1, 500, false],
        [2, null, false],
      ]);
      expect(live[1][3]).not.toMatch(/^interrupted/);

      // The snapshot was saved while that attempt was out: restored, its list says so.
      expect((await t.call('POST', '/sandbox/snapshots/mid-attempt/restore')).status).toBe(200);
      expect((await t.call('GET', `/sandbox/webhook-logs/${log!.id}`)).body.data.attempt_count).toBe(2);
      expect(await attempts(t, log!)).toEqual([
        [1, 500, false, null],
        [2, null, false, INTERRUPTED_BY_SNAPSHOT],
      ]);
      await expectCleanAudit(t);
    } finally {
      if (!closed) await app.close();
      await t.close();
    }
  });
});
