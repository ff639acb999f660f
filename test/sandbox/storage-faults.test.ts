import { describe, expect, it } from 'vitest';
import { injectStorageFault } from '../../src/engine/db/sqlite/open.js';
import { LedgerError } from '../../src/engine/errors.js';
import { limitLog } from '../../src/sandbox/log-limit.js';
import { createTestSandbox, createWallet } from '../helpers/sandbox.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

describe('deliveries when attempts cannot be recorded (decisions: Webhooks)', () => {
  it('with the disk full nothing is sent until its attempt can be recorded, then each event is sent once', async () => {
    // An attempt whose outcome cannot be recorded is due again at every round: sent, it would reach the endpoint without end.
    const t = await createTestSandbox({ listen: true });
    const app = await startWebhookApp(
      () => '',
      () => 200,
    );
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      await createWallet(t, 1_000);
      await createWallet(t, 2_000);
      injectStorageFault(t.sandbox.db, 'full');
      for (let pass = 0; pass < 50; pass++) await t.app.scheduler.runDue();
      expect(app.received).toHaveLength(0);
      const logs = (await t.call('GET', '/v1/webhook-logs')).body.data.items;
      expect(logs.map((l: { status: string; attempt_count: number }) => [l.status, l.attempt_count])).toEqual([
        ['PENDING', 0],
        ['PENDING', 0],
      ]);

      injectStorageFault(t.sandbox.db, undefined);
      // The clock advance is itself a write: once one commits, deliveries resume and it runs what is due.
      await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      expect(app.received.map((r) => r.id).sort()).toEqual(logs.map((l: { event_id: string }) => l.event_id).sort());
      expect((await t.call('GET', '/v1/webhook-logs?status=DELIVERED')).body.data.total).toBe(2);
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('an attempt whose outcome cannot be written is not sent again at once: it waits for its next retry', async () => {
    const t = await createTestSandbox({ listen: true });
    let fail = false;
    const app = await startWebhookApp(
      () => '',
      () => {
        if (fail) injectStorageFault(t.sandbox.db, 'full');
        return 200;
      },
    );
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      await createWallet(t, 1_000);
      fail = true;
      await t.app.scheduler.runDue();
      for (let pass = 0; pass < 20; pass++) await t.app.scheduler.runDue();
      expect(app.received).toHaveLength(1);
      fail = false;
      injectStorageFault(t.sandbox.db, undefined);
      const [log] = (await t.call('GET', '/v1/webhook-logs')).body.data.items;
      expect(log).toMatchObject({ status: 'PENDING', attempt_count: 1, next_retry_at: '2026-11-21T09:30:05.000Z' });
      await t.call('POST', '/sandbox/clock/advance', { seconds: 4 });
      expect(app.received).toHaveLength(1);
      await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      expect(app.received).toHaveLength(2);
      expect((await t.call('GET', `/sandbox/webhook-logs/${log.id}`)).body.data).toMatchObject({
        status: 'DELIVERED',
        attempt_count: 2,
      });
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('a manual retry on a full disk answers 507 and sends nothing', async () => {
    const t = await createTestSandbox({ listen: true });
    const app = await startWebhookApp(
      () => '',
      (n) => (n === 1 ? 500 : 200),
    );
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      await createWallet(t, 1_000);
      await t.app.scheduler.runDue();
      const [log] = (await t.call('GET', '/v1/webhook-logs')).body.data.items;
      expect(log.status).toBe('FAILED');
      injectStorageFault(t.sandbox.db, 'full');
      const r = await t.call('POST', `/v1/webhook-logs/${log.id}/retry`);
      expect([r.status, r.body.detail.code]).toEqual([507, 'STORAGE_FULL']);
      expect(app.received).toHaveLength(1);
      injectStorageFault(t.sandbox.db, undefined);
      expect((await t.call('POST', `/v1/webhook-logs/${log.id}/retry`)).body.data).toMatchObject({
        status: 'DELIVERED',
        attempt_count: 2,
      });
    } finally {
      await app.close();
      await t.close();
    }
  });
});

describe('a clock advance whose walk meets a full disk', () => {
  it('answers the move it committed, and the clock reads the new time', async () => {
    // Not 507 "nothing was written": the move committed, and the clock and its stored offset both say 10:30.
    const t = await createTestSandbox({ listen: true });
    // The first attempt's outcome cannot be written: the disk fills during the walk, before the payout settles at 09:30:02.
    const app = await startWebhookApp(
      () => '',
      () => {
        injectStorageFault(t.sandbox.db, 'full');
        return 200;
      },
    );
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      const w = await createWallet(t, 100_000);
      const payout = await t.call('POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: '1111111111',
        destination_bank_code: '058',
        amount: 5_000,
      });
      expect(payout.body.data.status).toBe('PENDING');
      const headers = { 'idempotency-key': 'walk-full' };
      const moved = await t.call('POST', '/sandbox/clock/advance', { seconds: 3_600 }, { headers });
      expect([moved.status, moved.body.data]).toEqual([
        200,
        { now: '2026-11-21T10:30:00.000Z', offset_seconds: 3_600 },
      ]);
      injectStorageFault(t.sandbox.db, undefined);
      expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-21T10:30:00.000Z');
      // Its replay answers the same, and moves nothing.
      const replayed = await t.call('POST', '/sandbox/clock/advance', { seconds: 3_600 }, { headers });
      expect([replayed.status, replayed.body.data.now]).toEqual([200, '2026-11-21T10:30:00.000Z']);
      expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-21T10:30:00.000Z');
      // What could not run stays due, and runs at the next advance.
      expect((await t.call('GET', `/v1/transactions/${payout.body.data.transaction_id}`)).body.data.status).toBe(
        'PENDING',
      );
      await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      expect((await t.call('GET', `/v1/transactions/${payout.body.data.transaction_id}`)).body.data.status).toBe(
        'FAILED',
      );
      expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(100_000);
    } finally {
      await app.close();
      await t.close();
    }
  });
});

describe('logging cannot fill the disk', () => {
  it('logs a storage failure as one line a minute, and other errors at most 20 a minute', () => {
    // A failing disk fails every request: a stack trace each would fill the log at megabytes a second.
    const lines: string[] = [];
    let now = 0;
    const log = limitLog(
      (line) => lines.push(line),
      20,
      () => now,
    );
    for (let i = 0; i < 10_000; i++)
      log(new LedgerError('STORAGE_FULL', 'the disk is full: nothing was written; free some space and retry'));
    expect(lines).toEqual(['storage: the disk is full: nothing was written; free some space and retry']);
    for (let i = 0; i < 1_000; i++) log(new Error(`bug ${i}`));
    expect(lines).toHaveLength(21);
    now += 60_000;
    log(new Error('later'));
    expect(lines.slice(21)).toEqual([
      '(980 more errors were not logged in the last minute)',
      expect.stringContaining('Error: later'),
    ]);
    log(new LedgerError('STORAGE_FULL', 'the disk is full: nothing was written; free some space and retry'));
    expect(lines.at(-1)).toBe('storage: the disk is full: nothing was written; free some space and retry');
  });
});
