// bench/transfers: internal transfers over HTTP (autocannon, 16 connections) against the same
// engine SQL run in-process on an identical database. Prints both figures and their ratio.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { audit } from '../dist/engine/audit/audit.service.js';
import { receiveInbound } from '../dist/engine/inbound/inbound.service.js';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { createWallet } from '../dist/engine/wallets/wallets.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
const BIN = resolve(import.meta.dirname, '../bin/ledger.js');

async function seed(sandbox, developerId) {
  const wallets = [];
  for (const reference of ['bench-a', 'bench-b']) {
    const wallet = await sandbox.db.transaction().execute((trx) =>
      createWallet(trx, sandbox.env, developerId, { customer_reference: reference, first_name: 'Bench', last_name: reference, email: `${reference}@example.com` }),
    );
    await sandbox.db.transaction().execute((trx) => receiveInbound(trx, sandbox.env, developerId, { account_number: wallet.account_number, amount: 1_000_000_000_000 }));
    wallets.push(wallet);
  }
  return wallets;
}

/** The floor: the same transfer (same statements, same transaction) called in a loop, no HTTP. */
async function inProcess(dir) {
  const sandbox = await openSandbox({ dbPath: join(dir, 'floor.db') });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seed(sandbox, developerId);
  const body = { destination_account_number: b.account_number, amount: 1 };
  const deadline = performance.now() + SECONDS * 1000;
  let count = 0;
  const latencies = [];
  while (performance.now() < deadline) {
    const start = performance.now();
    await sandbox.db.transaction().execute((trx) => transfer(trx, sandbox.env, developerId, a.id, body));
    latencies.push(performance.now() - start);
    count++;
  }
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
  const [a, b] = await seed(sandbox, developerId);
  await sandbox.close();

  const server = spawn(process.execPath, [BIN, 'sandbox', 'start', '--db', dbPath, '--port', '0'], { cwd: dir, env: { ...process.env, LEDGER_HOME: dir } });
  // No state file here, so the sandbox issues a fresh key and prints it.
  const [baseUrl, apiKey] = await new Promise((resolveUrl, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)\nAPI key\s+(\S+)/.exec(out);
      if (match) resolveUrl([match[1], match[2]]);
    });
    server.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const result = await autocannon({
    url: `${baseUrl}/v1/wallets/${a.id}/transfer`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ destination_account_number: b.account_number, amount: 1 }),
  });
  const auditResponse = await fetch(`${baseUrl}/sandbox/audit`, { headers: { 'x-api-key': apiKey } }).then((r) => r.json());
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
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
        floorLabel: 'same SQL in-process',
        target: '≥ 0.5× floor',
        met: http.perSecond >= 0.5 * floor.perSecond,
        note: `non-2xx ${http.non2xx}, errors ${http.errors}, audits ${audits}`,
      },
      {
        row: `transfer p99 latency, HTTP ${CONNECTIONS} conn`,
        value: http.p99,
        floor: floor.p99,
        unit: 'ms',
        floorLabel: 'in-process p99',
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
