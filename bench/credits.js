// bench/credits: inbound credits per second with narration analysis, an agent and the outbox,
// over HTTP against the same engine call in-process.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../dist/engine/agents/agents.service.js';
import { receiveInbound } from '../dist/engine/inbound/inbound.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { CONNECTIONS, SECONDS, seedWallets, startSandbox } from './lib.js';

async function prepare(dbPath) {
  const sandbox = await openSandbox({ dbPath });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [target, savings] = await seedWallets(sandbox, developerId, 2, 0);
  await sandbox.db.transaction().execute((trx) =>
    createAgent(trx, sandbox.envFor(developerId), developerId, target.id, { name: 'notify big credits', trigger: 'ON_CREDIT_AMOUNT_ABOVE', threshold: 1_000_000, action: 'WEBHOOK_NOTIFY' }),
  );
  void savings;
  return { sandbox, developerId, target };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-credits-'));
  try {
    const floor = await prepare(join(dir, 'floor.db'));
    const deadline = performance.now() + SECONDS * 1000;
    let count = 0;
    while (performance.now() < deadline) {
      await floor.sandbox.db.transaction().execute((trx) =>
        receiveInbound(trx, floor.sandbox.envFor(floor.developerId), floor.developerId, { account_number: floor.target.account_number, amount: 500_000, narration: 'NIP/GTB/ADA OBI/RENT JAN 2026' }),
      );
      count++;
    }
    await floor.sandbox.close();
    const inProcess = count / SECONDS;

    const seeded = await prepare(join(dir, 'http.db'));
    await seeded.sandbox.close();
    const server = await startSandbox(dir, join(dir, 'http.db'));
    const result = await autocannon({
      url: `${server.baseUrl}/sandbox/inbound-transfers`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({ account_number: seeded.target.account_number, amount: 500_000, narration: 'NIP/GTB/ADA OBI/RENT JAN 2026' }),
    });
    const audit = await server.call('GET', '/sandbox/audit');
    await server.stop();
    return [
      {
        row: 'inbound credits/s (analysis + agent + outbox), HTTP 16 conn',
        value: result.requests.average,
        floor: inProcess,
        unit: '/s',
        floorLabel: 'same engine call in-process',
        target: '—',
        met: audit.data.ok && result.non2xx === 0,
        note: `p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, audit ${audit.data.ok ? 'clean' : 'FAILED'}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
