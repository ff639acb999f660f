import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/engine/processes.js';
import { bulkTransfers } from '../helpers/bulk-ledger.js';
import { sandboxState, useCli } from '../helpers/cli.js';
import { createTestSandbox, createWallet, walletBody } from '../helpers/sandbox.js';

/**
 * A sandbox killed with SIGKILL while a reset removes a large ledger chunk by chunk, then started
 * again on the same file. The kill follows what the database shows (the reset's mark committed and
 * some of the rows gone, not all), never a timer.
 */
const cli = useCli('each');

const START = ['sandbox', 'start', '--detach', '--port', '0', '--db', 'ledger.db'];
/** 40,000 transactions with their events and deliveries: a reset of them takes many chunks. */
const TRANSFERS = 20_000;

const state = () => sandboxState(cli.dir);

async function call(method: string, path: string, options: { body?: unknown; key?: string } = {}) {
  const { baseUrl, apiKey } = state();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': options.key ?? apiKey,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('a sandbox killed (SIGKILL) in the middle of a reset of a large ledger', () => {
  it("finishes the reset when it starts again: the developer's books are empty, the audit is clean, and another developer's books are whole", async () => {
    const path = join(cli.dir, 'ledger.db');
    const t = await createTestSandbox({ dbPath: path });
    const owner = t.developerId;
    const a = await createWallet(t, TRANSFERS);
    await bulkTransfers(t.sandbox, owner, a, await createWallet(t), TRANSFERS);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other Pay' })).body.data;
    const theirs = (await t.call('POST', '/v1/wallets', walletBody(), { key: other.api_key })).body.data;
    for (const amount of [1_000, 2_000, 3_000])
      await t.call(
        'POST',
        '/sandbox/inbound-transfers',
        { account_number: theirs.account_number, amount, narration: 'salary' },
        { key: other.api_key },
      );
    await t.close();

    expect((await cli.run(START)).exitCode).toBe(0);
    const { pid } = state();
    const theirsBefore = {
      wallet: (await call('GET', `/v1/wallets/${theirs.id}`, { key: other.api_key })).body.data,
      history: (await call('GET', `/v1/wallets/${theirs.id}/transactions?limit=100`, { key: other.api_key })).body.data,
    };
    expect((await call('GET', '/sandbox/wallets')).body.data.total).toBe(2);

    const watch = new Database(path, { readonly: true });
    const seen = { mark: false, logs: 0 };
    try {
      const logs = () => (watch.prepare('SELECT count(*) AS n FROM webhook_logs').get() as { n: number }).n;
      const marked = () =>
        watch.prepare('SELECT 1 FROM settings WHERE key = ?').get(`reset_pending:${owner}`) !== undefined;
      const full = logs();
      let answered = false;
      const reset = call('POST', '/sandbox/reset').then(
        (r) => ((answered = true), r),
        () => 'killed' as const,
      );
      for (let i = 0; i < 20_000 && !answered; i++) {
        seen.mark = marked();
        seen.logs = logs();
        if (seen.mark && seen.logs > 0 && seen.logs < full) break;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      process.kill(pid, 'SIGKILL');
      expect(await reset).toBe('killed');
      // Killed part-way: the reset had begun (its mark committed) and removed some of the rows, not all.
      expect(seen.mark).toBe(true);
      expect(seen.logs).toBeGreaterThan(0);
      expect(seen.logs).toBeLessThan(full);
    } finally {
      watch.close();
    }
    for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));

    expect((await cli.run(START)).exitCode).toBe(0);
    // The developer's first request waits for the reset the start resumes, and sees it whole.
    expect((await call('GET', '/sandbox/audit')).body.data).toMatchObject({
      ok: true,
      problems: [],
      checked: { wallets: 0, transactions: 0, events: 0, webhook_logs: 0 },
    });
    expect((await call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    expect((await call('GET', '/v1/webhook-logs')).body.data.total).toBe(0);
    // Another developer's books are as they were.
    expect((await call('GET', '/sandbox/audit', { key: other.api_key })).body.data.ok).toBe(true);
    expect((await call('GET', `/v1/wallets/${theirs.id}`, { key: other.api_key })).body.data).toEqual(
      theirsBefore.wallet,
    );
    expect(
      (await call('GET', `/v1/wallets/${theirs.id}/transactions?limit=100`, { key: other.api_key })).body.data,
    ).toEqual(theirsBefore.history);
    // And the developer works again.
    const fresh = (await call('POST', '/v1/wallets', { body: walletBody() })).body.data;
    expect(
      (
        await call('POST', '/sandbox/inbound-transfers', {
          body: { account_number: fresh.account_number, amount: 500, narration: 'salary' },
        })
      ).body.data.outcome,
    ).toBe('CREDITED');
    expect((await call('GET', '/sandbox/audit')).body.data).toMatchObject({
      ok: true,
      checked: { wallets: 1, transactions: 1 },
    });
  }, 180_000);
});
