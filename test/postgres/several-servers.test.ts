import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, onTestFinished, test } from 'vitest';
import { INTERRUPTED_BY_STOP } from '../../src/engine/events/interrupted-attempts.js';
import { openServer, type OpenServer } from '../../src/sandbox/server.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { T0 } from '../helpers/sandbox.js';

/** One sandbox server on the shared database, listening on a loopback port, with a caller over HTTP. */
interface Node {
  server: OpenServer;
  baseUrl: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; text: string; headers: Headers }>;
}

/**
 * Servers on one PostgreSQL database, as several `sandbox start --database` processes would be:
 * each opens, migrates and serves it, with the same manual clock start and the owner's key.
 */
async function servers(
  count: number,
  options: { settlementDelaySeconds?: number; webhookTimeoutSeconds?: number; webhookLeaseSeconds?: number } = {},
) {
  const database = await createTestDatabase();
  const nodes: Node[] = [];
  onTestFinished(async () => {
    for (const node of nodes) await node.server.close().catch(() => {});
    await database.drop();
  });
  let key: string | undefined;
  const open = async (): Promise<Node> => {
    const server = await openServer({
      dbPath: database.url,
      clockStart: T0,
      knownKey: key,
      log: process.env.MULTI_LOG ? (line) => console.error(line) : () => {},
      ...options,
    });
    key = server.apiKey;
    const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
    server.app.setSelfUrl(baseUrl);
    const node: Node = {
      server,
      baseUrl,
      async call(method, path, body, headers = {}) {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: {
            'x-api-key': key!,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return { status: response.status, body: JSON.parse(text), text, headers: response.headers };
      },
    };
    nodes.push(node);
    return node;
  };
  for (let i = 0; i < count; i++) await open();
  return { nodes, open, database };
}

let reference = 0;
/** A wallet made and credited over HTTP on one of the servers. */
async function createWalletOn(node: Node, balance: number): Promise<{ id: string; account_number: string }> {
  reference += 1;
  const created = await node.call('POST', '/v1/wallets', {
    customer_reference: `multi-${reference}`,
    first_name: 'Ada',
    last_name: 'Obi',
    email: `ada${reference}@example.com`,
  });
  expect(created.status).toBe(201);
  const { id, account_number } = created.body.data;
  if (balance > 0) {
    const credited = await node.call('POST', '/sandbox/inbound-transfers', {
      account_number,
      amount: balance,
      narration: 'salary for november',
    });
    expect(credited.body.data.outcome).toBe('CREDITED');
  }
  return { id, account_number };
}

const balanceOn = async (node: Node, id: string): Promise<number> =>
  (await node.call('GET', `/v1/wallets/${id}`)).body.data.balance;

/** Runs `jobs` with at most `width` at once. */
async function pooled<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < jobs.length; i = next++) results[i] = await jobs[i]!();
    }),
  );
  return results;
}

async function expectCleanAudit(node: Node): Promise<void> {
  const audit = await node.call('GET', '/sandbox/audit');
  if (!audit.body.data) throw new Error(audit.text);
  expect(audit.body.data.problems).toEqual([]);
  expect(audit.body.data.ok).toBe(true);
}

/**
 * A webhook receiver that counts what arrives per webhook-id; `hold(n)` keeps the first `n`
 * deliveries unanswered until `release()`. Answers 200.
 */
async function countingReceiver() {
  const counts = new Map<string, number>();
  let holding = 0;
  const held: (() => void)[] = [];
  const arrived: ((n: number) => void)[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      arrived.splice(0).forEach((notify) => notify(counts.size));
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      if (holding > 0) {
        holding -= 1;
        held.push(answer);
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    held.splice(0).forEach((answer) => answer());
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    counts,
    hold: (n: number) => (holding = n),
    /** Resolves once a delivery is being held. */
    held: () => new Promise<void>((resolve) => (held.length > 0 ? resolve() : arrived.push(() => resolve()))),
    release: () => held.splice(0).forEach((answer) => answer()),
  };
}

/** A credit's delivery sent by `node` (a clock advance, its answer in `first`) and kept waiting by the endpoint. */
async function attemptHeldOpen(node: Node) {
  const receiver = await countingReceiver();
  expect((await node.call('PUT', '/sandbox/webhook-endpoint', { url: receiver.url })).status).toBe(200);
  await createWalletOn(node, 1_000);
  receiver.hold(1);
  const first = node.call('POST', '/sandbox/clock/advance', { seconds: 1 });
  await receiver.held();
  return { receiver, first };
}

describe('several servers on one PostgreSQL database', () => {
  test('200 transfers split across two servers, 16 at a time: every balance and the audit exact', async () => {
    const { nodes } = await servers(2);
    const wallets = await Promise.all([0, 1, 2, 3].map(() => createWalletOn(nodes[0]!, 1_000_000)));
    const expected = new Map(wallets.map((w) => [w.id, 1_000_000]));
    const jobs = Array.from({ length: 200 }, (_, i) => {
      const from = wallets[i % 4]!;
      const to = wallets[(i * 7 + 1) % 4 === i % 4 ? (i + 1) % 4 : (i * 7 + 1) % 4]!;
      const amount = 100 + i;
      expected.set(from.id, expected.get(from.id)! - amount);
      expected.set(to.id, expected.get(to.id)! + amount);
      return () =>
        nodes[i % 2]!.call(
          'POST',
          `/v1/wallets/${from.id}/transfer`,
          { destination_account_number: to.account_number, amount, narration: `t${i}` },
          { 'idempotency-key': `k-${i}` },
        );
    });
    const answers = await pooled(jobs, 16);
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    for (const w of wallets) {
      expect(await balanceOn(nodes[0]!, w.id)).toBe(expected.get(w.id));
      expect(await balanceOn(nodes[1]!, w.id)).toBe(expected.get(w.id));
    }
    const listed = await nodes[1]!.call('GET', `/v1/wallets/${wallets[0]!.id}/transactions?limit=1`);
    // The credit, 50 debits and the credits from the others.
    expect(listed.body.data.total).toBeGreaterThan(50);
    await expectCleanAudit(nodes[0]!);
    await expectCleanAudit(nodes[1]!);
  });

  test('one Idempotency-Key sent to both servers at once moves the money once, and both get the same answer', async () => {
    const { nodes } = await servers(2);
    const [from, to] = await Promise.all([createWalletOn(nodes[0]!, 1_000_000), createWalletOn(nodes[1]!, 0)]);
    for (let i = 0; i < 20; i++) {
      const body = { destination_account_number: to.account_number, amount: 1_000, narration: `once ${i}` };
      const [a, b] = await Promise.all(
        nodes.map((node) =>
          node.call('POST', `/v1/wallets/${from.id}/transfer`, body, { 'idempotency-key': `same-${i}` }),
        ),
      );
      expect([a!.status, b!.status]).toEqual([200, 200]);
      expect(a!.text).toBe(b!.text);
      expect([a!.headers.get('idempotent-replayed'), b!.headers.get('idempotent-replayed')].filter(Boolean)).toEqual([
        'true',
      ]);
    }
    expect(await balanceOn(nodes[0]!, from.id)).toBe(1_000_000 - 20 * 1_000);
    expect(await balanceOn(nodes[1]!, to.id)).toBe(20 * 1_000);
    await expectCleanAudit(nodes[1]!);
  });

  test('40 transfers of 1,000 kobo raced through two servers against 10,000: ten succeed, the balance never goes below 0', async () => {
    const { nodes } = await servers(2);
    const [from, to] = await Promise.all([createWalletOn(nodes[0]!, 10_000), createWalletOn(nodes[0]!, 0)]);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        nodes[i % 2]!.call('POST', `/v1/wallets/${from.id}/transfer`, {
          destination_account_number: to.account_number,
          amount: 1_000,
        }),
      ),
    );
    const codes = answers.map((a) => (a.status === 200 ? 'ok' : a.body.detail.code));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(10);
    expect(codes.filter((c) => c !== 'ok').every((c) => c === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await balanceOn(nodes[1]!, from.id)).toBe(0);
    expect(await balanceOn(nodes[1]!, to.id)).toBe(10_000);
    await expectCleanAudit(nodes[0]!);
  });

  test("a clock advance on one server is the other's clock at once, and a payout falling due is settled once", async () => {
    const { nodes } = await servers(2, { settlementDelaySeconds: 2 });
    const [a, b] = nodes as [Node, Node];
    const from = await createWalletOn(a, 1_000_000);
    const payout = await b.call('POST', `/v1/wallets/${from.id}/transfer`, {
      destination_account_number: '0123456785',
      destination_bank_code: '058',
      amount: 5_000,
    });
    expect(payout.status).toBe(200);
    expect(payout.body.data.status).toBe('PENDING');

    const advanced = await a.call('POST', '/sandbox/clock/advance', { seconds: 60 });
    expect((await b.call('GET', '/sandbox/clock')).body.data).toEqual(advanced.body.data);
    // Both servers run what is due at once: the settlement happens once.
    await Promise.all([
      a.call('POST', '/sandbox/clock/advance', { seconds: 1 }),
      b.call('POST', '/sandbox/clock/advance', { seconds: 1 }),
    ]);
    const clockA = (await a.call('GET', '/sandbox/clock')).body.data;
    expect((await b.call('GET', '/sandbox/clock')).body.data).toEqual(clockA);
    expect(clockA.offset_seconds).toBe(62);

    const transaction = await b.call('GET', `/v1/transactions/${payout.body.data.transaction_id}`);
    expect(transaction.body.data.status).toBe('SETTLED');
    const completed = await a.call('GET', '/v1/webhook-logs?event_type=transfer.completed');
    expect(completed.body.data.total).toBe(1);
    expect(await balanceOn(b, from.id)).toBe(1_000_000 - 5_000 - 1_000);
    await expectCleanAudit(b);
  });

  test('deliveries run by both servers at once reach the receiver exactly once each', async () => {
    const { nodes } = await servers(2);
    const [a, b] = nodes as [Node, Node];
    const receiver = await countingReceiver();
    expect((await a.call('PUT', '/sandbox/webhook-endpoint', { url: receiver.url })).status).toBe(200);
    const [from, to] = await Promise.all([createWalletOn(a, 1_000_000), createWalletOn(b, 0)]);
    await pooled(
      Array.from(
        { length: 40 },
        (_, i) => () =>
          nodes[i % 2]!.call('POST', `/v1/wallets/${from.id}/transfer`, {
            destination_account_number: to.account_number,
            amount: 100,
          }),
      ),
      8,
    );
    for (let round = 0; round < 3; round++)
      await Promise.all([
        a.call('POST', '/sandbox/clock/advance', { seconds: 1 }),
        b.call('POST', '/sandbox/clock/advance', { seconds: 1 }),
      ]);
    // The credit that funds, and a debit and a credit per transfer.
    expect(receiver.counts.size).toBe(1 + 80);
    expect([...receiver.counts.values()].filter((n) => n !== 1)).toEqual([]);
    const logs = await b.call('GET', '/v1/webhook-logs?status=DELIVERED&limit=1');
    expect(logs.body.data.total).toBe(81);
    await expectCleanAudit(a);
  });

  test('an attempt out on one server holds its delivery: the other server does not send it again when its retry time comes', async () => {
    const { nodes } = await servers(2, { webhookTimeoutSeconds: 15 });
    const [a, b] = nodes as [Node, Node];
    const { receiver, first } = await attemptHeldOpen(a);
    // Past the first retry's time (5 s), inside the lease (15 s timeout + 15 s).
    expect((await b.call('POST', '/sandbox/clock/advance', { seconds: 10 })).status).toBe(200);
    expect([...receiver.counts.values()]).toEqual([1]);
    expect((await a.call('GET', '/sandbox/health')).body.data).toMatchObject({
      lease_seconds: 30,
      deliveries_leased_by_this_server: 1,
    });
    receiver.release();
    expect((await first).status).toBe(200);
    const [log] = (await b.call('GET', '/v1/webhook-logs')).body.data.items;
    expect(log).toMatchObject({ status: 'DELIVERED', attempt_count: 1 });
    const attempts = (await b.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items;
    expect(attempts.map((x: any) => [x.attempt_number, x.http_status_code, x.error])).toEqual([[1, 200, null]]);
    expect((await a.call('GET', '/sandbox/health')).body.data.deliveries_leased_by_this_server).toBe(0);
  });

  test('a server started while another has an attempt out leaves that attempt alone', async () => {
    const { nodes, open } = await servers(1);
    const [a] = nodes as [Node];
    const { receiver, first } = await attemptHeldOpen(a);
    const c = await open();
    receiver.release();
    expect((await first).status).toBe(200);
    const [log] = (await c.call('GET', '/v1/webhook-logs')).body.data.items;
    const attempts = (await c.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items;
    expect(attempts.map((x: any) => [x.attempt_number, x.http_status_code, x.error])).toEqual([[1, 200, null]]);
  });

  test('an attempt whose server died is recorded as interrupted once its lease has passed, and another server delivers it', async () => {
    const { nodes, database } = await servers(2, { webhookTimeoutSeconds: 15 });
    const [a, b] = nodes as [Node, Node];
    const receiver = await countingReceiver();
    expect((await a.call('PUT', '/sandbox/webhook-endpoint', { url: receiver.url })).status).toBe(200);
    await createWalletOn(a, 1_000);
    // What a server killed mid-attempt leaves: the attempt counted and its delivery leased, no row.
    const pg = await import('pg');
    const client = new pg.default.Client(database.url);
    await client.connect();
    await client.query(`UPDATE webhook_logs SET attempt_count = 1, next_retry_at_ms = $1`, [T0 + 30_000]);
    await client.end();

    expect((await b.call('POST', '/sandbox/clock/advance', { seconds: 20 })).status).toBe(200);
    expect(receiver.counts.size).toBe(0);
    expect((await b.call('POST', '/sandbox/clock/advance', { seconds: 15 })).status).toBe(200);
    expect([...receiver.counts.values()]).toEqual([1]);
    const [log] = (await a.call('GET', '/v1/webhook-logs')).body.data.items;
    expect(log).toMatchObject({ status: 'DELIVERED', attempt_count: 2 });
    const attempts = (await a.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items;
    expect(attempts.map((x: any) => [x.attempt_number, x.manual, x.http_status_code, x.error])).toEqual([
      [1, false, null, INTERRUPTED_BY_STOP],
      [2, false, 200, null],
    ]);
    await expectCleanAudit(a);
  });

  test("a reset on one server keeps the other server's writes of that developer out until it is over", async () => {
    const { nodes } = await servers(2);
    const [a, b] = nodes as [Node, Node];
    const wallets = await pooled(
      Array.from({ length: 60 }, () => () => createWalletOn(a, 1_000)),
      8,
    );
    const order: string[] = [];
    const reset = a.call('POST', '/sandbox/reset').then((r) => {
      order.push('reset');
      return r;
    });
    // Writes through the other server while the reset runs.
    const during = pooled(
      Array.from({ length: 10 }, (_, i) => async () => {
        const created = await createWalletOn(b, 500);
        order.push(`wallet ${i}`);
        return created;
      }),
      2,
    );
    const [resetAnswer, created] = await Promise.all([reset, during]);
    expect(resetAnswer.status).toBe(200);
    // Every write acknowledged is whole after the reset: none was made half-way through it.
    for (const w of created) expect(await balanceOn(a, w.id)).toBe(500);
    const left = (await a.call('GET', '/sandbox/wallets?limit=100')).body.data;
    const kept = new Set(left.items.map((w: any) => w.id));
    expect(created.every((w) => kept.has(w.id))).toBe(true);
    expect(wallets.filter((w) => kept.has(w.id)).length + created.length).toBe(left.total);
    await expectCleanAudit(b);
  });
});
