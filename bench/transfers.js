// bench/transfers: internal transfers over HTTP (autocannon, 16 connections) against the same
// engine, SQL and group commit driven in-process by 16 concurrent callers on an identical
// database. Prints both figures and their ratio.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audit } from '../dist/engine/audit/audit.service.js';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { seedWallets, startSandbox } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
/** Both sides run this long before the measured run: JIT compilation and first-use statement preparation are not steady state. */
const WARM_UP_SECONDS = 2;

/**
 * The floor: the same transfers through the same engine and the same group commit, from
 * CONNECTIONS concurrent callers in-process: everything but HTTP, JSON and webhook delivery.
 */
async function inProcess(dir) {
  const sandbox = await openSandbox({ dbPath: join(dir, 'floor.db'), backgroundCheckpoints: true });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  const body = { destination_account_number: b.account_number, amount: 1 };
  const callers = async (seconds, latencies) => {
    const deadline = performance.now() + seconds * 1000;
    let count = 0;
    const caller = async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        await sandbox.write((trx) => transfer(trx, sandbox.env, developerId, a.id, body));
        latencies?.push(performance.now() - start);
        count++;
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, caller));
    return count;
  };
  await callers(WARM_UP_SECONDS);
  const latencies = [];
  const count = await callers(SECONDS, latencies);
  const report = await audit(sandbox.db);
  await sandbox.close();
  latencies.sort((x, y) => x - y);
  return { perSecond: count / SECONDS, count, auditOk: report.ok, p99: latencies[Math.floor(latencies.length * 0.99)] };
}

async function overHttp(dir) {
  const dbPath = join(dir, 'http.db');
  // Seed through the engine, then serve the same file from a separate process.
  const sandbox = await openSandbox({ dbPath });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  await sandbox.close();

  const server = await startSandbox(dir, dbPath);
  const load = (duration) =>
    autocannon({
      url: `${server.baseUrl}/v1/wallets/${a.id}/transfer`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({ destination_account_number: b.account_number, amount: 1 }),
    });
  await load(WARM_UP_SECONDS);
  const result = await load(SECONDS);
  const auditResponse = await server.call('GET', '/sandbox/audit');
  await server.stop();
  return {
    perSecond: result.requests.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    p50: result.latency.p50,
    p99: result.latency.p99,
    auditOk: auditResponse.data.ok,
  };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  try {
    const floor = await inProcess(dir);
    const http = await overHttp(dir);
    const audits = floor.auditOk && http.auditOk ? 'clean' : 'FAILED';
    return [
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn`,
        value: http.perSecond,
        floor: floor.perSecond,
        unit: '/s',
        floorLabel: 'same engine and group commit in-process, 16 callers',
        target: '≥ 0.5× floor',
        met: http.perSecond >= 0.5 * floor.perSecond,
        note: `non-2xx ${http.non2xx}, errors ${http.errors}, audits ${audits}`,
      },
      {
        row: `transfer p99 latency, HTTP ${CONNECTIONS} conn`,
        value: http.p99,
        floor: floor.p99,
        unit: 'ms',
        floorLabel: 'in-process p99, 16 callers',
        lowerIsBetter: true,
        target: '≤ 20 ms',
        met: http.p99 <= 20,
        note: `p50 ${http.p50} ms`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
