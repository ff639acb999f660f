import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RETRY_SCHEDULE_SECONDS } from '../../src/engine/events/webhooks.service.js';
import { createTestSandbox, createWallet, TEST_BACKEND, useSandbox, walletBody } from '../helpers/sandbox.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

/**
 * How many times a delivery was checked to be retryable. The retry route checks it, then begins
 * waiting for the delivery's turn in the same tick: a count that went up says a manual retry is
 * queued behind the attempt in flight, where an answer would not come until that attempt ends.
 */
const retryChecks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/engine/events/webhooks.service.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/engine/events/webhooks.service.js')>();
  return {
    ...actual,
    assertRetryable: (log: Parameters<typeof actual.assertRetryable>[0]) => {
      retryChecks.count += 1;
      actual.assertRetryable(log);
    },
  };
});

const t = useSandbox({ listen: true, auditAfter: true });

const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });
const logs = async (query = '') => (await t.call('GET', `/v1/webhook-logs${query}`)).body.data;
const creditLog = async () => (await logs('?event_type=ledger.credit&order=desc&limit=1')).items[0];
const secret = async () => (await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret as string;

describe('delivery to the built-in receiver', () => {
  it('delivers the exact envelope, signed, and the receiver verifies it', async () => {
    const w = await createWallet(t, 5_000);
    expect((await creditLog()).status).toBe('PENDING');
    await advance(1);
    const log = await creditLog();
    // Due when the credit was made, so the advance runs it first, at that time.
    expect(log).toMatchObject({
      status: 'DELIVERED',
      attempt_count: 1,
      http_status_code: 200,
      next_retry_at: null,
      delivered_at: '2026-11-21T09:30:00.000Z',
    });
    expect(log.payload).toMatchObject({ event_type: 'ledger.credit', data: { wallet_id: w.id, amount: 5_000 } });
    const events = (await t.call('GET', '/sandbox/receiver/events')).body.data.items;
    const got = events.find((e: { webhook_id: string }) => e.webhook_id === log.event_id);
    expect(got).toMatchObject({ event_type: 'ledger.credit', signature_valid: true, response_status: 200 });
    expect(got.body).toBe(JSON.stringify(log.payload));
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Number(got.headers['webhook-timestamp'])).toBeGreaterThan(1_700_000_000);
    const attempts = (await t.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items;
    expect(attempts).toEqual([
      expect.objectContaining({
        attempt_number: 1,
        manual: false,
        http_status_code: 200,
        url: `${t.baseUrl}/sandbox/receiver/${t.developerId}`,
      }),
    ]);
  });

  it('lists with status and event_type filters and refuses unknown values', async () => {
    await createWallet(t, 5_000);
    const all = await logs();
    expect(all.total).toBe(1);
    expect((await logs('?status=DELIVERED')).total).toBe(0);
    expect((await logs('?event_type=ledger.debit')).total).toBe(0);
    expect((await t.call('GET', '/v1/webhook-logs?event_type=ledger.refund')).status).toBe(400);
    expect((await t.call('GET', '/v1/webhook-logs?status=LOST')).status).toBe(400);
  });
});

describe('the retry schedule on the sandbox clock', () => {
  it('walks 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h and ends DEAD after 8 attempts', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 100 });
    await createWallet(t, 5_000);
    await advance(1);
    let log = await creditLog();
    expect(log).toMatchObject({
      status: 'FAILED',
      attempt_count: 1,
      http_status_code: 500,
      next_retry_at: '2026-11-21T09:30:05.000Z',
    });
    for (const [index, wait] of RETRY_SCHEDULE_SECONDS.entries()) {
      // A second before each retry is due (the first attempt was at 09:30:00, the clock read 09:30:01).
      await advance(wait - 1 - (index === 0 ? 1 : 0));
      expect((await creditLog()).attempt_count).toBe(index + 1);
      await advance(1);
      log = await creditLog();
      expect(log.attempt_count).toBe(index + 2);
    }
    expect(log).toMatchObject({ status: 'DEAD', attempt_count: 8, next_retry_at: null, delivered_at: null });
    expect(log.response_body).toContain('failure injected');
    await advance(100_000);
    expect((await creditLog()).attempt_count).toBe(8);
    const attempts = (await t.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items;
    expect(attempts.map((a: { attempt_number: number }) => a.attempt_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('one advance of two days makes every attempt of the schedule (27 h 35 min 5 s), each at its time, and answers the new time', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 100 });
    await createWallet(t, 5_000);
    const moved = await advance(2 * 86_400);
    expect(moved.body.data.now).toBe('2026-11-23T09:30:00.000Z');
    const log = await creditLog();
    expect(log).toMatchObject({ status: 'DEAD', attempt_count: 8, next_retry_at: null, delivered_at: null });
    const attempts = (await t.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items as {
      attempt_number: number;
      created_at: string;
    }[];
    // The first when the credit was made, then each after the one before by the schedule.
    const start = Date.parse('2026-11-21T09:30:00.000Z');
    const times = RETRY_SCHEDULE_SECONDS.reduce((at, wait) => [...at, at.at(-1)! + wait * 1000], [start]);
    expect(attempts.map((a) => [a.attempt_number, a.created_at])).toEqual(
      times.map((ms, i) => [i + 1, new Date(ms).toISOString()]),
    );
    // The clock reads the new time afterwards, and a later advance finds nothing left to try.
    expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-23T09:30:00.000Z');
    await advance(86_400);
    expect((await creditLog()).attempt_count).toBe(8);
  });

  it('two advances sent at once run one after the other: every attempt at its time, and the clock at the sum', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 100 });
    await createWallet(t, 5_000);
    const answers = await Promise.all([advance(2 * 86_400), advance(60)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-23T09:31:00.000Z');
    const log = await creditLog();
    expect(log).toMatchObject({ status: 'DEAD', attempt_count: 8 });
    const attempts = (await t.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items as {
      created_at: string;
    }[];
    const start = Date.parse('2026-11-21T09:30:00.000Z');
    const times = RETRY_SCHEDULE_SECONDS.reduce((at, wait) => [...at, at.at(-1)! + wait * 1000], [start]);
    expect(attempts.map((a) => a.created_at)).toEqual(times.map((ms) => new Date(ms).toISOString()));
  });

  it('the same Idempotency-Key sent again while an advance walks replays it: the clock moves once, each attempt made once', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 100 });
    await createWallet(t, 5_000);
    const key = { headers: { 'idempotency-key': 'walk-once' } };
    const [first, again] = await Promise.all([
      t.call('POST', '/sandbox/clock/advance', { seconds: 2 * 86_400 }, key),
      t.call('POST', '/sandbox/clock/advance', { seconds: 2 * 86_400 }, key),
    ]);
    expect([first.status, again.status, again.headers['idempotent-replayed'], again.body]).toEqual([
      200,
      200,
      'true',
      first.body,
    ]);
    expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-23T09:30:00.000Z');
    expect(await creditLog()).toMatchObject({ status: 'DEAD', attempt_count: 8 });
  });

  // The restore must land while the walk still runs. On PostgreSQL its preparation (loading the file
  // into a staging schema, then its audit) outlasts the whole walk: the restore then lands after it,
  // and the restored state's due delivery waits for the next advance, as on any manual clock.
  it.runIf(TEST_BACKEND === 'sqlite')(
    'a snapshot restored during an advance leaves the restored clock, not the advance’s new time',
    async () => {
      let restoring: ReturnType<typeof t.call> | undefined;
      const whsec = await secret();
      // The third attempt of the walk asks for the restore; it waits for that attempt to be recorded.
      const app = await startWebhookApp(
        () => whsec,
        (n) => {
          if (n === 3) restoring = t.call('POST', '/sandbox/snapshots/before/restore');
          return 500;
        },
      );
      try {
        await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
        await createWallet(t, 5_000);
        expect((await t.call('POST', '/sandbox/snapshots', { name: 'before' })).status).toBe(200);
        expect((await advance(2 * 86_400)).status).toBe(200);
        expect((await restoring)?.status).toBe(200);
        // The walk stopped at the restore: the clock is the snapshot's, and what was due there ran there.
        expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-21T09:30:00.000Z');
        expect(await creditLog()).toMatchObject({
          status: 'FAILED',
          attempt_count: 1,
          next_retry_at: '2026-11-21T09:30:05.000Z',
        });
        expect(app.received.map((r) => [r.status, r.verified])).toEqual(Array(4).fill([500, true]));
      } finally {
        await app.close();
      }
    },
  );

  it("a walk runs only the caller's work", async () => {
    // Another developer's delivery due on its own clock waits, and a payout to its wallet arrives on its clock.
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data.api_key as string;
    const wallet = (await t.call('POST', '/v1/wallets', walletBody(), { key: other })).body.data;
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 100 });
    const w = await createWallet(t, 100_000);
    // Settles on the caller's clock at 09:30:02, during the walk: the other developer's wallet is credited then.
    const sent = await t.call('POST', `/v1/wallets/${w.id}/transfer`, {
      destination_account_number: wallet.account_number,
      destination_bank_code: '035',
      amount: 5_000,
    });
    expect(sent.body.data.status).toBe('PENDING');
    await advance(2 * 86_400);
    expect(await creditLog()).toMatchObject({ status: 'DEAD', attempt_count: 8 });
    const theirs = (await t.call('GET', '/v1/webhook-logs', undefined, { key: other })).body.data.items;
    expect(
      theirs.map((l: { event_type: string; status: string; attempt_count: number; created_at: string }) => [
        l.event_type,
        l.status,
        l.attempt_count,
        l.created_at,
      ]),
    ).toEqual([['ledger.credit', 'PENDING', 0, '2026-11-21T09:30:00.000Z']]);
    expect((await t.call('GET', '/sandbox/clock', undefined, { key: other })).body.data).toEqual({
      now: '2026-11-21T09:30:00.000Z',
      offset_seconds: 0,
    });
  });

  it('an advance stops where the schedule goes past it: 10 min against a failing endpoint makes the attempts at 0 s, 5 s and 5 min 5 s', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 100 });
    await createWallet(t, 5_000);
    await advance(600);
    const log = await creditLog();
    expect(log).toMatchObject({ status: 'FAILED', attempt_count: 3, next_retry_at: '2026-11-21T10:05:05.000Z' });
    // Two advances that reach the same time as one make the same attempts.
    await advance(1_500);
    expect(await creditLog()).toMatchObject({ status: 'FAILED', attempt_count: 3 });
    await advance(5);
    expect(await creditLog()).toMatchObject({
      status: 'FAILED',
      attempt_count: 4,
      next_retry_at: '2026-11-21T12:05:05.000Z',
    });
  });

  it('retries by hand from FAILED and from DEAD, one attempt before answering', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 1 });
    await createWallet(t, 5_000);
    await advance(1);
    const failed = await creditLog();
    expect(failed.status).toBe('FAILED');
    const retried = await t.call('POST', `/v1/webhook-logs/${failed.id}/retry`);
    expect(retried.body.data).toMatchObject({ status: 'DELIVERED', attempt_count: 2, http_status_code: 200 });
    const again = await t.call('POST', `/v1/webhook-logs/${failed.id}/retry`);
    expect([again.status, again.body.detail.code]).toEqual([409, 'WEBHOOK_NOT_RETRYABLE']);

    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 410, count: 1 });
    await createWallet(t, 1_000);
    await advance(1);
    const dead = await creditLog();
    expect(dead).toMatchObject({ status: 'DEAD', attempt_count: 1, http_status_code: 410, next_retry_at: null });
    const revived = await t.call('POST', `/v1/webhook-logs/${dead.id}/retry`);
    expect(revived.body.data).toMatchObject({ status: 'DELIVERED', attempt_count: 2 });
    const attempts = (await t.call('GET', `/sandbox/webhook-logs/${dead.id}/attempts`)).body.data.items;
    expect(attempts.map((a: { manual: boolean }) => a.manual)).toEqual([false, true]);
  });

  it('a failed manual retry leaves a FAILED log on its schedule and a DEAD log dead', async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 3 });
    await createWallet(t, 5_000);
    await advance(1);
    const before = await creditLog();
    const after = (await t.call('POST', `/v1/webhook-logs/${before.id}/retry`)).body.data;
    expect(after).toMatchObject({ status: 'FAILED', attempt_count: 2, next_retry_at: before.next_retry_at });
  });

  /** A credit's delivery to `url` that failed once, its next attempt due now. */
  async function failedAndDue(url: string) {
    await t.call('PUT', '/sandbox/webhook-endpoint', { url });
    await createWallet(t, 5_000);
    await advance(1);
    const failed = (await logs('?status=FAILED')).items[0];
    await t.sandbox.db.updateTable('webhook_logs').set({ next_retry_at_ms: 0 }).execute();
    return failed;
  }

  it('a manual retry and the schedule never send a due delivery at once: one waits for the other, and the log counts both attempts', async () => {
    const whsec = await secret();
    const app = await startWebhookApp(
      () => whsec,
      (n) => (n === 1 ? 500 : 200),
    );
    try {
      // Its next attempt falls due just as someone retries it by hand.
      const failed = await failedAndDue(app.url);
      const [manual] = await Promise.all([
        t.call('POST', `/v1/webhook-logs/${failed.id}/retry`),
        t.app.scheduler.runDue(t.developerId),
      ]);
      await t.app.scheduler.runDue(t.developerId);
      // Whichever went first delivered it; the other sent nothing (the retry answers 409 if it came second).
      expect([200, 409]).toContain(manual.status);
      expect(app.received).toHaveLength(2);
      const after = (await t.call('GET', `/sandbox/webhook-logs/${failed.id}`)).body.data;
      const attempts = (await t.call('GET', `/sandbox/webhook-logs/${failed.id}/attempts`)).body.data.items;
      expect([after.status, after.attempt_count, attempts.length]).toEqual(['DELIVERED', 2, 2]);
    } finally {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: null });
      await app.close();
    }
  });

  it('a manual retry that waits for its turn sends to the endpoint as it is then, not as it was when the retry was asked for', async () => {
    const whsec = await secret();
    const first = await startWebhookApp(
      () => whsec,
      (n) => (n === 1 ? 500 : 'hang'),
    );
    const second = await startWebhookApp(() => whsec);
    try {
      // Its scheduled attempt is out (the application holds it) when someone retries it by hand…
      const failed = await failedAndDue(first.url);
      const scheduled = t.app.scheduler.runDue(t.developerId);
      await vi.waitUntil(() => first.received.length >= 2, { timeout: 5_000, interval: 5 });
      const checked = retryChecks.count;
      const manual = t.call('POST', `/v1/webhook-logs/${failed.id}/retry`);
      await vi.waitUntil(() => retryChecks.count > checked, { timeout: 5_000, interval: 5 });
      // …and the endpoint moves while the retry waits for that attempt to end.
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: second.url });
      await first.close();
      await scheduled;
      expect((await manual).status).toBe(200);
      expect(second.received.map((r) => r.verified)).toEqual([true]);
      expect(first.received).toHaveLength(2);
      const after = (await t.call('GET', `/sandbox/webhook-logs/${failed.id}`)).body.data;
      const attempts = (await t.call('GET', `/sandbox/webhook-logs/${failed.id}/attempts`)).body.data.items;
      expect([after.status, after.attempt_count]).toEqual(['DELIVERED', 3]);
      expect(attempts.map((a: { url: string }) => a.url)).toEqual([first.url, first.url, second.url]);
    } finally {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: null });
      await first.close();
      await second.close();
    }
  });

  it('answers 409 to a retry of a PENDING or DELIVERED log, and 404 to another developer’s', async () => {
    await createWallet(t, 5_000);
    const pending = await creditLog();
    expect((await t.call('POST', `/v1/webhook-logs/${pending.id}/retry`)).body.detail.code).toBe(
      'WEBHOOK_NOT_RETRYABLE',
    );
    await advance(1);
    const delivered = await t.call('POST', `/v1/webhook-logs/${pending.id}/retry`);
    expect([delivered.status, delivered.body.detail]).toEqual([
      409,
      {
        code: 'WEBHOOK_NOT_RETRYABLE',
        message: 'a DELIVERED delivery cannot be retried: only FAILED or DEAD ones',
        request_id: 'req_00000007',
      },
    ]);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data.api_key;
    expect((await t.call('POST', `/v1/webhook-logs/${pending.id}/retry`, undefined, { key: other })).status).toBe(404);
  });
});

describe('a developer’s own endpoint', () => {
  it('is verified by the standardwebhooks package on every attempt, before and after a secret rotation', async () => {
    let secrets = [await secret()];
    const app = await startWebhookApp(
      () => secrets[secrets.length - 1]!,
      (n) => (n <= 2 ? 500 : 200),
    );
    try {
      expect((await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url })).body.data).toMatchObject({
        url: app.url,
        built_in: false,
      });
      await createWallet(t, 5_000);
      await advance(1);
      await advance(5);
      const rotated = (await t.call('POST', '/sandbox/webhook-endpoint/rotate-secret')).body.data;
      expect(rotated.previous_secret_valid_until).toBe('2026-11-22T09:30:06.000Z');
      // A receiver still on the old secret verifies during the overlap.
      await advance(300);
      expect(app.received.map((r) => [r.status, r.verified])).toEqual([
        [500, true],
        [500, true],
        [200, true],
      ]);
      expect(app.received[2]!.signature.split(' ')).toHaveLength(2);
      expect((await creditLog()).status).toBe('DELIVERED');
      secrets = [rotated.secret];
      await createWallet(t, 1_000);
      await advance(1);
      expect(app.received.at(-1)).toMatchObject({ status: 200, verified: true });
      await advance(24 * 3600);
      expect((await t.call('GET', '/sandbox/webhook-endpoint')).body.data.previous_secret_valid_until).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('gives up on an endpoint that hangs past the timeout, and does not follow redirects', async () => {
    const slow = await createTestSandbox({ listen: true, webhookTimeoutSeconds: 0.3, seed: 'slow' });
    const app = await startWebhookApp(
      () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      (n) => (n === 1 ? 'hang' : 'redirect'),
    );
    try {
      await slow.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      await createWallet(slow, 5_000);
      await slow.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      const log = (await slow.call('GET', '/v1/webhook-logs')).body.data.items[0];
      expect(log).toMatchObject({
        status: 'FAILED',
        attempt_count: 1,
        http_status_code: null,
        response_body: 'timeout: no answer within 0.3 s',
      });
      await slow.call('POST', '/sandbox/clock/advance', { seconds: 5 });
      const redirected = (await slow.call('GET', `/sandbox/webhook-logs/${log.id}`)).body.data;
      expect(redirected).toMatchObject({ status: 'FAILED', attempt_count: 2, http_status_code: 302 });
      expect(app.received).toHaveLength(2);
    } finally {
      await app.close();
      await slow.close();
    }
  });

  it('refuses a URL that is not http(s), and null goes back to the built-in receiver', async () => {
    const bad = await t.call('PUT', '/sandbox/webhook-endpoint', { url: 'ftp://example.com/x' });
    expect([bad.status, bad.body.detail.fields]).toEqual([
      400,
      [{ field: 'url', message: 'must be an http or https URL' }],
    ]);
    await t.call('PUT', '/sandbox/webhook-endpoint', { url: 'http://127.0.0.1:9/x' });
    const reset = await t.call('PUT', '/sandbox/webhook-endpoint', { url: null });
    expect(reset.body.data).toMatchObject({ built_in: true, url: `${t.baseUrl}/sandbox/receiver/${t.developerId}` });
    expect(reset.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });
});

describe('a restart mid-schedule', () => {
  it('continues the schedule after a restart, and nothing is sent twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-webhook-restart-'));
    const dbPath = join(dir, 'sandbox.db');
    const app = await startWebhookApp(
      () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      (n) => (n === 1 ? 500 : 200),
    );
    try {
      const first = await createTestSandbox({ dbPath, listen: true, seed: 'a' });
      await first.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      await createWallet(first, 5_000);
      await first.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      const log = (await first.call('GET', '/v1/webhook-logs')).body.data.items[0];
      expect(log).toMatchObject({ status: 'FAILED', attempt_count: 1 });
      await first.close();

      const second = await createTestSandbox({ dbPath, listen: true, seed: 'b' });
      await second.call('POST', '/sandbox/clock/advance', { seconds: 5 });
      expect((await second.call('GET', `/sandbox/webhook-logs/${log.id}`)).body.data).toMatchObject({
        status: 'DELIVERED',
        attempt_count: 2,
      });
      await second.call('POST', '/sandbox/clock/advance', { seconds: 3600 });
      expect(app.received.map((r) => [r.id, r.status])).toEqual([
        [log.event_id, 500],
        [log.event_id, 200],
      ]);
      await second.close();
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
