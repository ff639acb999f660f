import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from '../helpers/cli.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

const cli = useCli();

/** The running sandbox's URL, key and pid, from the state file `sandbox start` wrote. */
function state(): { baseUrl: string; apiKey: string; pid: number } {
  const { base_url: baseUrl, api_key: apiKey, pid } = JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8'));
  return { baseUrl, apiKey, pid };
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const { baseUrl, apiKey } = state();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as any };
}

const until = async (done: () => boolean | Promise<boolean>) => {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('a request killed between its effect and its answer (SIGKILL), retried with its Idempotency-Key', () => {
  it('seen: a clock advance killed while it ran what fell due moved the clock again on the retry; now the retry replays it', async () => {
    const db = join(cli.dir, 'ledger.db');
    const start = ['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--clock', 'manual'];
    expect((await cli.run(start)).exitCode).toBe(0);
    // The developer's own endpoint: fails the first attempt, never answers the second, takes the third.
    let secret = '';
    const app = await startWebhookApp(() => secret, (n) => (n === 1 ? 500 : n === 2 ? 'hang' : 200));
    try {
      secret = (await call('GET', '/sandbox/webhook-endpoint')).body.data.secret;
      expect((await call('PUT', '/sandbox/webhook-endpoint', { url: app.url })).status).toBe(200);
      const wallet = (await call('POST', '/v1/wallets', { customer_reference: 'k1', first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com' })).body.data;
      expect((await call('POST', '/sandbox/inbound-transfers', { account_number: wallet.account_number, amount: 5_000 })).status).toBe(200);
      // A manual clock delivers what is due when it is advanced: the first attempt, which fails.
      expect((await call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
      await until(async () => (await call('GET', '/v1/webhook-logs?status=FAILED')).body.data.total === 1);

      // The advance makes the retry (5 s after the failure) due and waits for it: the server dies there.
      const advancing = call('POST', '/sandbox/clock/advance', { seconds: 10 }, { 'idempotency-key': 'advance-once' }).catch(() => 'killed');
      await until(() => app.received.length === 2);
      process.kill(state().pid, 'SIGKILL');
      expect(await advancing).toBe('killed');

      expect((await cli.run(start)).exitCode).toBe(0);
      const retried = await call('POST', '/sandbox/clock/advance', { seconds: 10 }, { 'idempotency-key': 'advance-once' });
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
});
