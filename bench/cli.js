// bench/cli: what a person waits for at a terminal. `ledger wallets get --json` against `node -e`
// doing the same fetch; `sandbox start --detach` until healthy against a bare node server.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, startSandbox } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);

function wall(args, env) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore', env });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function untilHealthy(url) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-cli-'));
  try {
    const server = await startSandbox(dir, join(dir, 'cli.db'));
    const wallet = (await server.call('POST', '/v1/wallets', { customer_reference: 'cli', first_name: 'C', last_name: 'L', email: 'c@l.ng' })).data;
    const env = { ...process.env, LEDGER_BASE_URL: server.baseUrl, LEDGER_API_KEY: server.apiKey };
    const fetchScript = `fetch(process.env.LEDGER_BASE_URL + '/v1/wallets/${wallet.id}', { headers: { 'x-api-key': process.env.LEDGER_API_KEY } }).then((r) => r.json()).then((b) => console.log(JSON.stringify(b.data, null, 2)))`;
    const cli = [];
    const node = [];
    wall(['-e', fetchScript], env);
    for (let i = 0; i < RUNS; i++) {
      node.push(wall(['-e', fetchScript], env));
      cli.push(wall([BIN, 'wallets', 'get', wallet.id, '--json'], env));
    }
    await server.stop();

    const ready = [];
    const bare = [];
    for (let i = 0; i < 3; i++) {
      const run = join(dir, `start-${i}`);
      const start = performance.now();
      execFileSync(process.execPath, [BIN, 'sandbox', 'start', '--detach', '--memory', '--port', '0'], { cwd: dir, env: { ...process.env, LEDGER_HOME: run }, stdio: 'ignore' });
      ready.push(performance.now() - start);
      execFileSync(process.execPath, [BIN, 'sandbox', 'stop'], { cwd: dir, env: { ...process.env, LEDGER_HOME: run }, stdio: 'ignore' });
      const port = 20000 + Math.floor(Math.random() * 20000);
      const t0 = performance.now();
      const child = spawn(process.execPath, ['-e', `require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`]);
      await untilHealthy(`http://127.0.0.1:${port}/`);
      bare.push(performance.now() - t0);
      child.kill();
    }
    return [
      { row: '`ledger wallets get --json` wall time', value: median(cli), floor: median(node), unit: 'ms', floorLabel: 'node -e fetch', lowerIsBetter: true, target: '≤ 1.5× floor', met: median(cli) <= 1.5 * median(node) },
      { row: '`ledger sandbox start --detach` until healthy', value: median(ready), floor: median(bare), unit: 'ms', floorLabel: 'bare node server', lowerIsBetter: true, target: '≤ 1000 ms', met: median(ready) <= 1000 },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
