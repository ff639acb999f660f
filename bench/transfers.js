// bench/transfers: internal transfers over HTTP (autocannon, 16 connections) against the same
// engine SQL run in-process on an identical database: once one transaction at a time, once through
// the same group commit from 16 concurrent callers. Prints the figures and their ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audit } from '../dist/engine/audit/audit.service.js';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { CONNECTIONS, SECONDS, seedWallets, servedTransfers } from './lib.js';

/** Both sides run this long before the measured run: JIT compilation and first-use statement preparation are not steady state. */
const WARM_UP_SECONDS = 2;

/**
 * The floors, in-process on an identical database, with no HTTP, JSON or webhook delivery:
 * - `callers: 1`: the same engine call in its own database transaction, one after another (the
 *   same SQL a single request runs);
 * - `callers: CONNECTIONS`: the same engine call through the same group commit from as many
 *   concurrent callers as the HTTP run has connections (everything the server does but HTTP and
 *   delivering webhooks).
 */
async function inProcess(dir, callerCount) {
  const sandbox = await openSandbox({ dbPath: join(dir, `floor-${callerCount}.db`), backgroundCheckpoints: true });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  const body = { destination_account_number: b.account_number, amount: 1 };
  const callers = async (seconds, latencies) => {
    const deadline = performance.now() + seconds * 1000;
    let count = 0;
    const caller = async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const work = (trx) => transfer(trx, sandbox.envFor(developerId), developerId, a.id, body);
        await (callerCount === 1 ? sandbox.db.transaction().execute(work) : sandbox.write(work));
        latencies?.push(performance.now() - start);
        count++;
      }
    };
    await Promise.all(Array.from({ length: callerCount }, caller));
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
  const { server, load } = await servedTransfers(dir, join(dir, 'http.db'));
  await load({ duration: WARM_UP_SECONDS });
  const result = await load({ duration: SECONDS });
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
    // HTTP first: autocannon shares this process, and the floors leave its heap full.
    const http = await overHttp(dir);
    const serial = await inProcess(dir, 1);
    const grouped = await inProcess(dir, CONNECTIONS);
    const audits = serial.auditOk && grouped.auditOk && http.auditOk ? 'clean' : 'FAILED';
    return [
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn`,
        value: http.perSecond,
        floor: serial.perSecond,
        unit: '/s',
        floorLabel: 'same SQL in-process, one transaction each',
        target: '≥ 0.5× floor',
        met: http.perSecond >= 0.5 * serial.perSecond,
        note: `non-2xx ${http.non2xx}, errors ${http.errors}, audits ${audits}`,
      },
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn (strict floor)`,
        value: http.perSecond,
        floor: grouped.perSecond,
        unit: '/s',
        floorLabel: `same group commit in-process, ${CONNECTIONS} callers`,
        target: '—',
        met: true,
        note: 'the HTTP side also delivers 2 webhooks per transfer',
      },
      {
        row: `transfer p99 latency, HTTP ${CONNECTIONS} conn`,
        value: http.p99,
        floor: grouped.p99,
        unit: 'ms',
        floorLabel: `in-process p99, ${CONNECTIONS} callers`,
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
