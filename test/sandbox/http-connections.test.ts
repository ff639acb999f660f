import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, createWallet, type TestSandbox } from '../helpers/sandbox.js';

/**
 * What many connections, or many requests on one, do to a sandbox on a real loopback socket: slow
 * clients hold nothing up, and pipelined requests are answered in the order they were sent.
 */
let t: TestSandbox;
let port: number;
beforeAll(async () => {
  t = await createTestSandbox({ listen: true });
  port = Number(new URL(t.baseUrl!).port);
});
afterAll(() => t.close());

/** This process's limit on open files (the soft one, which is what applies). */
function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft) return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    // Not Linux: ask the shell, whose limit is this process's.
  }
  const answer = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  return answer === 'unlimited' ? Number.POSITIVE_INFINITY : Number(answer);
}

const SLOW_SOCKETS = 2_000;
/** The server is in this process: each slow connection takes two descriptors here, and the test and sandbox need a few hundred of their own. */
const NEEDED = 2 * SLOW_SOCKETS + 512;
const limit = openFileLimit();
const tooFew = !(limit >= NEEDED);
if (tooFew)
  console.warn(
    `skipping the ${SLOW_SOCKETS.toLocaleString('en')} slow-header sockets test: ` +
      `the open-file limit is ${limit}, below the ${NEEDED} it needs (raise it with ulimit -n)`,
  );

/** Resolves with `promise`, or rejects once `ms` pass: a liveness bound, far above what the answer takes. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('slow clients', () => {
  it.skipIf(tooFew)(
    `${SLOW_SOCKETS.toLocaleString('en')} sockets that never finish a header do not stall other clients`,
    async () => {
      // Each slow socket trickles a request header and stays open while the others are answered.
      const wallet = await createWallet(t, 1_000);
      const slow: Socket[] = [];
      const closed = new Set<Socket>();
      let trickle: NodeJS.Timeout | undefined;
      try {
        // In batches, so the listen backlog never overflows into SYN retries.
        for (let opened = 0; opened < SLOW_SOCKETS; opened += 100) {
          await Promise.all(
            Array.from(
              { length: Math.min(100, SLOW_SOCKETS - opened) },
              () =>
                new Promise<void>((resolve, reject) => {
                  const socket = connect(port, '127.0.0.1', () => {
                    socket.write(`GET /sandbox/health HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: `);
                    resolve();
                  });
                  socket.once('error', reject);
                  socket.once('close', () => closed.add(socket));
                  slow.push(socket);
                }),
            ),
          );
        }
        // One more byte of the header now and then on each, never its end.
        trickle = setInterval(() => {
          for (const socket of slow) if (!socket.destroyed) socket.write('a');
        }, 500);
        const accepted = () =>
          new Promise<number>((resolve, reject) =>
            t.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
          );
        for (let i = 0; i < 200 && (await accepted()) < SLOW_SOCKETS; i++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await accepted()).toBeGreaterThanOrEqual(SLOW_SOCKETS);

        const headers = { 'x-api-key': t.key, 'content-type': 'application/json' };
        const requests = Array.from({ length: 20 }, async (_, i) => {
          if (i % 4 === 0) {
            const r = await fetch(`${t.baseUrl}/sandbox/inbound-transfers`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ account_number: wallet.account_number, amount: 100, narration: 'salary' }),
            });
            return [r.status, ((await r.json()) as { data: { outcome: string } }).data.outcome];
          }
          const r = await fetch(`${t.baseUrl}${i % 2 ? '/sandbox/health' : `/v1/wallets/${wallet.id}`}`, {
            headers: { 'x-api-key': t.key },
          });
          return [r.status, ((await r.json()) as { success: boolean }).success];
        });
        const answers = await within(10_000, 'requests beside the slow sockets', Promise.all(requests));
        expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? [200, 'CREDITED'] : [200, true])));
        expect((await t.call('GET', `/v1/wallets/${wallet.id}`)).body.data.balance).toBe(1_000 + 5 * 100);
        // They were all still open meanwhile: nothing was answered by dropping them.
        expect(closed.size).toBe(0);
      } finally {
        clearInterval(trickle);
        for (const socket of slow) socket.destroy();
      }
    },
    60_000,
  );
});

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Reads HTTP/1.1 responses off `bytes`, one after another, each framed by its content-length. */
function responses(bytes: Buffer): Parsed[] {
  const found: Parsed[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) throw new Error(`an unfinished response head at byte ${at}`);
    const [statusLine = '', ...lines] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    if (headers['content-length'] === undefined) throw new Error(`a response without content-length: ${statusLine}`);
    const length = Number(headers['content-length']);
    found.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: JSON.parse(bytes.subarray(end + 4, end + 4 + length).toString('utf8')),
    });
    at = end + 4 + length;
  }
  return found;
}

describe('pipelined requests', () => {
  it('requests pipelined in one write are answered in the order they were sent', async () => {
    // One connection carries them all, among them a POST with an Idempotency-Key and its repeat.
    const a = await createWallet(t, 2_000);
    const b = await createWallet(t, 3_000);
    const credit = JSON.stringify({
      account_number: b.account_number,
      amount: 700,
      narration: 'salary',
      provider_reference: 'PIPELINED-1',
    });
    const get = (path: string, last = false) =>
      `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${t.key}\r\n${last ? 'connection: close\r\n' : ''}\r\n`;
    const post =
      `POST /sandbox/inbound-transfers HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${t.key}\r\n` +
      'idempotency-key: pipelined-credit\r\ncontent-type: application/json\r\n' +
      `content-length: ${Buffer.byteLength(credit)}\r\n\r\n${credit}`;
    const sent = [
      get('/sandbox/health'),
      get(`/v1/wallets/${a.id}`),
      get('/sandbox/clock'),
      post,
      get(`/v1/wallets/${b.id}`),
      get('/v1/wallets/00000000-0000-7000-8000-000000000000'),
      post,
      get(`/v1/wallets/${a.id}/transactions`),
      get('/sandbox/magic'),
      get(`/sandbox/wallets?customer_reference=${encodeURIComponent(b.customer_reference)}`),
      get('/sandbox/health', true),
    ];
    const bytes = await within(
      10_000,
      'the pipelined answers',
      new Promise<Buffer>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(sent.join('')));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks)));
      }),
    );
    const got = responses(bytes);
    expect(got).toHaveLength(sent.length);
    const [health, walletA, clock, credited, walletB, missing, replayed, history, magic, listed, last] = got as [
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
      Parsed,
    ];
    expect([health.status, health.body.data.status]).toEqual([200, 'ok']);
    expect([walletA.status, walletA.body.data.id]).toEqual([200, a.id]);
    expect([clock.status, clock.body.data.now]).toEqual([200, '2026-11-21T09:30:00.000Z']);
    expect([
      credited.status,
      credited.headers['idempotent-replayed'],
      credited.body.data.outcome,
      credited.body.data.transaction.amount,
    ]).toEqual([200, undefined, 'CREDITED', 700]);
    expect([walletB.status, walletB.body.data.id]).toEqual([200, b.id]);
    expect([missing.status, missing.body.detail]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'wallet not found', request_id: missing.headers['request-id'] },
    ]);
    expect([replayed.status, replayed.headers['idempotent-replayed'], replayed.body]).toEqual([
      200,
      'true',
      credited.body,
    ]);
    expect([
      history.status,
      history.body.data.items.map((x: { wallet_id: string; amount: number }) => [x.wallet_id, x.amount]),
    ]).toEqual([200, [[a.id, 2_000]]]);
    expect([magic.status, magic.body.data.items[0].account_number]).toEqual([200, '0000000000']);
    expect([listed.status, listed.body.data.items.map((w: { id: string }) => w.id)]).toEqual([200, [b.id]]);
    expect([last.status, last.body.data.status]).toEqual([200, 'ok']);
    expect((await t.call('GET', `/v1/wallets/${b.id}`)).body.data.balance).toBe(3_700);
  });
});
