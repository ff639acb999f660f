// bench/credits: inbound credits per second with narration analysis, an agent and the outbox,
// over HTTP against the same engine call in-process, ROUNDS of each, interleaved.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../dist/engine/agents/agents.service.js';
import { receiveInbound } from '../dist/engine/inbound/inbound.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { CONNECTIONS, interleave, SECONDS, seedWallets, startSandbox } from './lib.js';

const CREDIT = { amount: 500_000, narration: 'NIP/GTB/ADA OBI/RENT JAN 2026' };

async function prepare(dbPath) {
  const sandbox = await openSandbox({ dbPath });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [target] = await seedWallets(sandbox, developerId, 1, 0);
  await sandbox.db.transaction().execute((trx) =>
    createAgent(trx, sandbox.envFor(developerId), developerId, target.id, {
      name: 'notify big credits',
      trigger: 'ON_CREDIT_AMOUNT_ABOVE',
      threshold: 1_000_000,
      action: 'WEBHOOK_NOTIFY',
    }),
  );
  return { sandbox, developerId, target };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-credits-'));
  let round = 0;
  try {
    const overHttp = async () => {
      const seeded = await prepare(join(dir, `http-${round}.db`));
      await seeded.sandbox.close();
      const server = await startSandbox(dir, join(dir, `http-${round}.db`));
      const result = await autocannon({
        url: `${server.baseUrl}/sandbox/inbound-transfers`,
        method: 'POST',
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
        body: JSON.stringify({ account_number: seeded.target.account_number, ...CREDIT }),
      });
      const audit = await server.call('GET', '/sandbox/audit');
      await server.stop();
      return {
        perSecond: result.requests.average,
        p99: result.latency.p99,
        failures: result.non2xx + result.errors,
        clean: audit.data.ok ? 1 : 0,
      };
    };
    const inProcess = async () => {
      const floor = await prepare(join(dir, `floor-${round++}.db`));
      const deadline = performance.now() + SECONDS * 1000;
      let count = 0;
      while (performance.now() < deadline) {
        await floor.sandbox.db.transaction().execute((trx) =>
          receiveInbound(trx, floor.sandbox.envFor(floor.developerId), floor.developerId, {
            account_number: floor.target.account_number,
            ...CREDIT,
          }),
        );
        count++;
      }
      await floor.sandbox.close();
      return count / SECONDS;
    };
    const { a: http, b: floor } = await interleave(overHttp, inProcess);
    const failures = http.failures.samples.reduce((x, y) => x + y, 0);
    return [
      {
        row: `inbound credits/s (analysis + agent + outbox), HTTP ${CONNECTIONS} conn`,
        value: http.perSecond,
        floor,
        unit: '/s',
        floorLabel: 'same engine call in-process, one transaction each',
        target: '—',
        note: `p99 ${http.p99.median} ms, non-2xx and errors ${failures}, audits ${http.clean.min === 1 ? 'clean' : 'FAILED'}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
