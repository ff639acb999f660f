import { describe, expect, it } from 'vitest';
import { sandboxState, useCli } from '../helpers/cli.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

const cli = useCli('each');

const state = () => sandboxState(cli.dir);

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const { baseUrl, apiKey } = state();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    body: (await response.json()) as any,
  };
}

const until = async (done: () => boolean | Promise<boolean>) => {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 10));
};

const START = ['sandbox', 'start', '--detach', '--port', '0', '--db', 'ledger.db', '--clock', 'manual'];

/**
 * A detached sandbox on a manual clock whose developer's own endpoint fails the first attempt,
 * never answers the second and takes every later one; one credit's delivery has had its first
 * attempt (FAILED). Returns the endpoint (close it) and that log.
 */
async function failedDelivery() {
  expect((await cli.run(START)).exitCode).toBe(0);
  let secret = '';
  const app = await startWebhookApp(
    () => secret,
    (n) => (n === 1 ? 500 : n === 2 ? 'hang' : 200),
  );
  secret = (await call('GET', '/sandbox/webhook-endpoint')).body.data.secret;
  expect((await call('PUT', '/sandbox/webhook-endpoint', { url: app.url })).status).toBe(200);
  const wallet = (
    await call('POST', '/v1/wallets', {
      customer_reference: 'k1',
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'ada@example.com',
    })
  ).body.data;
  expect(
    (await call('POST', '/sandbox/inbound-transfers', { account_number: wallet.account_number, amount: 5_000 })).status,
  ).toBe(200);
  // A manual clock delivers what is due when it is advanced: the first attempt, which fails.
  expect((await call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
  await until(async () => (await call('GET', '/v1/webhook-logs?status=FAILED')).body.data.total === 1);
  return { app, log: (await call('GET', '/v1/webhook-logs?status=FAILED')).body.data.items[0] };
}

describe('a request killed between its effect and its answer (SIGKILL), retried with its Idempotency-Key', () => {
  it('a clock advance killed while it ran what fell due replays when retried with its key, and the clock moves once', async () => {
    const { app } = await failedDelivery();
    try {
      // The advance makes the retry (5 s after the failure) due and waits for it: the server dies there.
      const advancing = call(
        'POST',
        '/sandbox/clock/advance',
        { seconds: 10 },
        { 'idempotency-key': 'advance-once' },
      ).catch(() => 'killed');
      await until(() => app.received.length === 2);
      process.kill(state().pid, 'SIGKILL');
      expect(await advancing).toBe('killed');

      expect((await cli.run(START)).exitCode).toBe(0);
      const retried = await call(
        'POST',
        '/sandbox/clock/advance',
        { seconds: 10 },
        { 'idempotency-key': 'advance-once' },
      );
      expect([retried.status, retried.replayed, retried.body.data.offset_seconds]).toEqual([200, 'true', 11]);
      expect((await call('GET', '/sandbox/clock')).body.data.offset_seconds).toBe(11);
      // The interrupted attempt counted (the log says 2 attempts); the next one, 5 min later, is made
      // after the restart, and the books are clean.
      expect((await call('POST', '/sandbox/clock/advance', { seconds: 300 })).body.data.offset_seconds).toBe(311);
      await until(() => app.received.length === 3);
      expect(new Set(app.received.map((r) => r.id)).size).toBe(1);
      expect((await call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
    } finally {
      await app.close();
    }
  }, 40_000);

  it('a manual webhook retry killed while its attempt was out replays the attempt on record when retried with its key, and sends nothing', async () => {
    // The manual retry is the endpoint's second attempt, which it never answers.
    const { app, log } = await failedDelivery();
    try {
      const retrying = call('POST', `/v1/webhook-logs/${log.id}/retry`, undefined, {
        'idempotency-key': 'retry-once',
      }).catch(() => 'killed');
      await until(() => app.received.length === 2);
      process.kill(state().pid, 'SIGKILL');
      expect(await retrying).toBe('killed');

      expect((await cli.run(START)).exitCode).toBe(0);
      const retried = await call('POST', `/v1/webhook-logs/${log.id}/retry`, undefined, {
        'idempotency-key': 'retry-once',
      });
      // The attempt that was out counts; its outcome never came back, so the log keeps the last one it has.
      expect([
        retried.status,
        retried.replayed,
        retried.body.data.attempt_count,
        retried.body.data.status,
        retried.body.data.http_status_code,
      ]).toEqual([200, 'true', 2, 'FAILED', 500]);
      expect((await call('GET', `/sandbox/webhook-logs/${log.id}`)).body.data.attempt_count).toBe(2);
      // Its attempts list holds both: the retry by hand that was out reads as interrupted.
      const listed = (await call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items;
      expect(
        listed.map(
          (a: { attempt_number: number; manual: boolean; http_status_code: number | null; error: string | null }) => [
            a.attempt_number,
            a.manual,
            a.http_status_code,
            a.error,
          ],
        ),
      ).toEqual([
        [1, false, 500, null],
        [
          2,
          true,
          null,
          "interrupted: the sandbox stopped before this attempt's outcome was recorded; the endpoint may or may not have received it",
        ],
      ]);
      // Nothing went out again, even after the server had time to deliver anything it thought due.
      expect((await call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
      expect(app.received.length).toBe(2);
      // A new request (another key) makes a new attempt, which the endpoint takes.
      const again = await call('POST', `/v1/webhook-logs/${log.id}/retry`, undefined, {
        'idempotency-key': 'retry-twice',
      });
      expect([again.status, again.replayed, again.body.data.status, again.body.data.attempt_count]).toEqual([
        200,
        null,
        'DELIVERED',
        3,
      ]);
      expect(app.received.length).toBe(3);
      expect((await call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
    } finally {
      await app.close();
    }
  }, 40_000);
});
