// bench/webhooks: deliveries per second from the sandbox to a receiving application on this
// machine over HTTP (its own URL, not the built-in receiver), against the same receiver taking the
// same POSTs straight from this process (8 at a time, like the dispatcher), ROUNDS of each, interleaved.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { receiveInbound } from '../dist/engine/inbound/inbound.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { interleave, seedWallets, startSandbox } from './lib.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-webhooks-'));
  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.end('ok');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/hooks`;
  let round = 0;
  try {
    const body = JSON.stringify({
      event_id: 'x',
      event_type: 'ledger.credit',
      api_version: '2026-11-01',
      created_at: new Date().toISOString(),
      data: { wallet_id: 'w', amount: 1 },
    });
    const bare = async () => {
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next++ < EVENTS)
            await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) =>
              r.text(),
            );
        }),
      );
      return EVENTS / ((performance.now() - start) / 1000);
    };
    // EVENTS credits committed while the sandbox was stopped, then delivered from its start.
    const sandboxed = async () => {
      const dbPath = join(dir, `hooks-${round++}.db`);
      const sandbox = await openSandbox({ dbPath });
      const { developerId } = await ensureSandboxDeveloper(sandbox);
      const [wallet] = await seedWallets(sandbox, developerId, 1, 0);
      for (let i = 0; i < EVENTS; i++) {
        await sandbox.db.transaction().execute((trx) =>
          receiveInbound(trx, sandbox.envFor(developerId), developerId, {
            account_number: wallet.account_number,
            amount: 100,
            narration: 'salary',
          }),
        );
      }
      await sandbox.close();
      received = 0;
      const began = performance.now();
      const server = await startSandbox(dir, dbPath, ['--webhook-url', url]);
      while (received < EVENTS) await new Promise((resolve) => setTimeout(resolve, 20));
      const seconds = (performance.now() - began) / 1000;
      const delivered = (await server.call('GET', '/v1/webhook-logs?status=DELIVERED&limit=1')).data.total;
      await server.stop();
      return { perSecond: EVENTS / seconds, delivered };
    };
    const { a: sandbox, b: floor } = await interleave(sandboxed, bare);
    return [
      {
        row: 'webhook deliveries/s to an application over HTTP',
        value: sandbox.perSecond,
        floor,
        unit: '/s',
        floorLabel: 'bare POSTs, 8 at a time',
        target: '—',
        met: sandbox.delivered.min === EVENTS,
        note: `${sandbox.delivered.min} of ${EVENTS} DELIVERED in the slowest run, timed from process start`,
      },
    ];
  } finally {
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
