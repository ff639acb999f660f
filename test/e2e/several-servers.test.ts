import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { createCli } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/postgres.js';

/**
 * Two `ledger sandbox start --database postgres://…` processes on one database (decisions: Storage), one
 * killed with SIGKILL under load. Payouts settle only at a clock advance (an hour's settlement
 * delay), so which server settles them is the test's choice, not the wall clock's.
 */

interface Started {
  base_url: string;
  api_key: string | null;
  pid: number;
}

interface Log {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
}

test('two `sandbox start` processes on one database, one killed under load: nothing acknowledged is lost or done twice', async () => {
  // SIGKILL leaves it no chance to tidy up: money moves once, every delivery arrives once, the audit is clean.
  const database = await createTestDatabase();
  onTestFinished(database.drop);
  const cli = createCli();
  const homes = { a: join(cli.dir, '.ledger', 'a'), b: join(cli.dir, '.ledger', 'b') };
  onTestFinished(async () => {
    for (const home of Object.values(homes)) await cli.run(['sandbox', 'stop'], { env: { LEDGER_HOME: home } });
    cli.cleanup();
  });
  const start = async (home: string): Promise<Started> => {
    const args = [
      'sandbox',
      'start',
      '--detach',
      '--json',
      '--database',
      database.url,
      '--port',
      '0',
      '--webhook-timeout',
      '2',
      '--webhook-lease',
      '4',
      '--settlement-delay',
      '3600',
    ];
    const r = await cli.run(args, { env: { LEDGER_HOME: home } });
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Started;
  };
  // The first start makes the owner and prints its key; the second joins that owner with none of its own.
  const a = await start(homes.a);
  const b = await start(homes.b);
  expect([a.api_key, b.api_key]).toEqual([expect.stringMatching(/^svc_test_/), null]);
  const key = a.api_key!;
  const through = (server: Started) => ({ LEDGER_BASE_URL: server.base_url, LEDGER_API_KEY: key });

  const counts = new Map<string, number>();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  onTestFinished(() => void receiver.close());
  const call = async (server: Started, method: string, path: string, body?: unknown, idempotencyKey?: string) => {
    const response = await fetch(`${server.base_url}${path}`, {
      method,
      headers: {
        'x-api-key': key,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      text: await response.text(),
    };
  };
  const data = async (server: Started, path: string) => JSON.parse((await call(server, 'GET', path)).text).data;
  /** Polls until every delivery is DELIVERED and `settled` holds, with a bound far above what it takes. */
  const quiet = async (server: Started, settled: () => Promise<boolean> = async () => true) => {
    for (let tries = 0; ; tries++) {
      if ((await data(server, '/v1/webhook-logs?status=PENDING,FAILED&limit=1')).total === 0 && (await settled()))
        return;
      expect(tries, 'deliveries still waiting').toBeLessThan(120);
      await new Promise((done) => setTimeout(done, 500));
    }
  };
  expect(
    (
      await call(a, 'PUT', '/sandbox/webhook-endpoint', {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      })
    ).status,
  ).toBe(200);
  const wallets: { id: string; account_number: string }[] = [];
  for (const i of [1, 2]) {
    const created = JSON.parse(
      (
        await call(a, 'POST', '/v1/wallets', {
          customer_reference: `e2e-${i}`,
          first_name: 'Ada',
          last_name: 'Obi',
          email: `a${i}@example.com`,
        })
      ).text,
    ).data;
    expect(
      (
        await call(b, 'POST', '/sandbox/inbound-transfers', {
          account_number: created.account_number,
          amount: 10_000_000,
          narration: 'salary',
        })
      ).status,
    ).toBe(200);
    wallets.push(created);
  }
  const [from, to] = [wallets[0]!, wallets[1]!];
  const transfer = (server: Started, amount: number, idempotencyKey?: string) =>
    call(
      server,
      'POST',
      `/v1/wallets/${from.id}/transfer`,
      { destination_account_number: to.account_number, amount },
      idempotencyKey,
    );
  const payout = async (server: Started) => {
    const sent = await call(server, 'POST', `/v1/wallets/${from.id}/transfer`, {
      destination_account_number: '0123456785',
      destination_bank_code: '058',
      amount: 5_000,
    });
    expect([sent.status, JSON.parse(sent.text).data.status]).toEqual([200, 'PENDING']);
    return JSON.parse(sent.text).data.transaction_id as string;
  };
  const statusOf = async (transactionId: string) => (await data(a, `/v1/transactions/${transactionId}`)).status;

  // The same key to both at once, ten times over: each key moves money once, and both answers are its answer.
  for (let i = 0; i < 10; i++) {
    const both = await Promise.all([a, b].map((server) => transfer(server, 1_000, `same-${i}`)));
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(both[0]!.text).toBe(both[1]!.text);
    expect(both.filter((answer) => answer.replayed)).toHaveLength(1);
  }

  // A payout made on A falls due at a clock advance on B; A sees the clock moved and the payout settled.
  // First the deliveries under way: an hour's advance would end their leases while A still has them out.
  const first = await payout(a);
  await quiet(a);
  const advanced = await cli.run(['sandbox', 'clock', 'advance', '1h', '--json'], { env: through(b) });
  expect(advanced.exitCode, advanced.stderr).toBe(0);
  expect(await data(a, '/sandbox/clock')).toMatchObject({ offset_seconds: JSON.parse(advanced.stdout).offset_seconds });
  expect(JSON.parse(advanced.stdout).offset_seconds).toBeGreaterThanOrEqual(3600);
  expect(await statusOf(first)).toBe('SETTLED');

  // A payout made on B, still pending when B is killed: the survivor settles it.
  const second = await payout(b);

  // 200 transfers, each with its own key, split across both; B is killed part-way.
  const acknowledged = new Set<number>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < 200; i = next++) {
      const answer = await transfer(i % 2 === 0 ? a : b, 100, `t-${i}`).catch(() => undefined);
      if (answer?.status === 200) acknowledged.add(i);
      if (i === 100) process.kill(b.pid, 'SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect(acknowledged.size).toBeGreaterThan(100);
  expect(acknowledged.size).toBeLessThan(200);
  // Each transfer B did not answer is sent again to A with its key: replayed if B committed it, made now if not.
  for (let i = 0; i < 200; i++) if (!acknowledged.has(i)) expect((await transfer(a, 100, `t-${i}`)).status).toBe(200);
  // Every transfer is in the books exactly once, whichever server took it.
  expect(await data(a, `/v1/wallets/${to.id}`)).toMatchObject({ balance: 10_000_000 + 10 * 1_000 + 200 * 100 });
  expect(await data(a, `/v1/wallets/${from.id}`)).toMatchObject({
    balance: 10_000_000 - 10 * 1_000 - 200 * 100 - 2 * (5_000 + 1_000),
  });

  // The survivor settles B's payout at its own clock advance, and takes over B's deliveries once their lease has passed.
  const later = await cli.run(['sandbox', 'clock', 'advance', '1h'], { env: { LEDGER_HOME: homes.a } });
  expect(later.exitCode, later.stderr).toBe(0);
  await quiet(a, async () => (await statusOf(second)) === 'SETTLED');

  const logs: Log[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await data(a, `/v1/webhook-logs?limit=100&page=${page}`);
    logs.push(...(items as Log[]));
    if (logs.length >= total) break;
  }
  // Every delivery reached the endpoint; only one that B had out as it died may have reached it twice.
  expect(logs.every((log) => log.status === 'DELIVERED')).toBe(true);
  expect(logs.map((log) => counts.get(log.event_id) ?? 0).filter((n) => n === 0)).toEqual([]);
  expect(counts.size).toBe(logs.length);
  const twice = logs.filter((log) => counts.get(log.event_id)! > 1);
  const interrupted: Log[] = [];
  for (const log of logs.filter((l) => l.attempt_count > 1)) {
    const attempts = (await data(a, `/sandbox/webhook-logs/${log.id}/attempts`)).items as { error: string | null }[];
    if (attempts.some((attempt) => attempt.error?.startsWith('interrupted: the sandbox stopped')))
      interrupted.push(log);
  }
  expect(twice.filter((log) => !interrupted.includes(log))).toEqual([]);
  // B sends at most 8 attempts at once for a developer.
  expect(interrupted.length).toBeLessThanOrEqual(8);

  const audit = await cli.run(['sandbox', 'audit'], { env: { LEDGER_HOME: homes.a } });
  expect(audit.exitCode, audit.stdout + audit.stderr).toBe(0);
}, 180_000);
