import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/engine/processes.js';
import { sandboxState, useCli } from '../helpers/cli.js';

/**
 * A sandbox killed with SIGKILL in the middle of a burst of credits, many in flight at once (so
 * the kill lands inside the write batches that group commit makes of them), then started again on
 * the same database file. The kill follows a count of answers, never a timer.
 */
const cli = useCli('each');

const START = ['sandbox', 'start', '--detach', '--port', '0', '--db', 'ledger.db'];
const CREDITS = 1_000;
const IN_FLIGHT = 16;
const KILL_AFTER = 300;

const state = () => sandboxState(cli.dir);

async function call(method: string, path: string, body?: unknown) {
  const { baseUrl, apiKey } = state();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Runs `work` for 0…n−1, `IN_FLIGHT` at a time. */
async function each(n: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

const credit = (accountNumber: string, i: number) => ({
  account_number: accountNumber,
  amount: 100 + i,
  narration: 'salary',
  provider_reference: `BURST-${i}`,
});

describe(`a sandbox killed (SIGKILL) during a burst of ${CREDITS.toLocaleString('en')} credits`, () => {
  it('loses no credit it acknowledged, and sending them all again credits each exactly once', async () => {
    // Acknowledged means kept: after a restart on the same database each is there once and the audit is clean.
    expect((await cli.run(START)).exitCode).toBe(0);
    const { pid } = state();
    const wallet = (
      await call('POST', '/v1/wallets', {
        customer_reference: 'burst',
        first_name: 'Ada',
        last_name: 'Obi',
        email: 'ada@example.com',
      })
    ).body.data;

    /** Credit i → the answer's data, for every credit answered 2xx. */
    const acknowledged = new Map<number, any>();
    const otherAnswers: string[] = [];
    let unanswered = 0;
    let killed = false;
    const { baseUrl, apiKey } = state();
    await each(CREDITS, async (i) => {
      try {
        const response = await fetch(`${baseUrl}/sandbox/inbound-transfers`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(credit(wallet.account_number, i)),
        });
        const body = (await response.json()) as any;
        if (response.status >= 300) otherAnswers.push(`${i}: ${response.status} ${JSON.stringify(body)}`);
        else acknowledged.set(i, body.data);
      } catch {
        unanswered++;
      }
      if (!killed && acknowledged.size >= KILL_AFTER) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
    });
    expect(otherAnswers).toEqual([]);
    // Killed part-way: some were acknowledged, the rest never answered.
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(unanswered).toBe(CREDITS - acknowledged.size);
    expect(unanswered).toBeGreaterThan(0);
    for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid)).toBe(false);

    expect((await cli.run(START)).exitCode).toBe(0);
    expect((await call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true, problems: [] });
    const acked = [...acknowledged];
    await each(acked.length, async (k) => {
      const [i, data] = acked[k]!;
      expect(data.outcome).toBe('CREDITED');
      const found = await call('GET', `/v1/transactions/${data.transaction.id}`);
      expect([i, found.status, found.body.data?.amount, found.body.data?.provider_reference]).toEqual([
        i,
        200,
        100 + i,
        `BURST-${i}`,
      ]);
    });

    // Everything sent again: a credit that committed (acknowledged or not) answers its first outcome, the rest are credited now.
    await each(CREDITS, async (i) => {
      const again = await call('POST', '/sandbox/inbound-transfers', credit(wallet.account_number, i));
      expect([i, again.status, again.body.data.outcome]).toEqual([i, 200, 'CREDITED']);
      if (acknowledged.has(i)) expect(again.body.data.transaction.id).toBe(acknowledged.get(i).transaction.id);
    });
    const sum = Array.from({ length: CREDITS }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
    expect((await call('GET', `/v1/wallets/${wallet.id}`)).body.data.balance).toBe(sum);
    expect((await call('GET', `/v1/wallets/${wallet.id}/transactions?limit=1`)).body.data.total).toBe(CREDITS);
    expect((await call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true, problems: [] });
  }, 120_000);
});
