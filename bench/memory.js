// bench/memory: the sandbox's resident memory after 100,000 internal transfers over HTTP, against
// its memory right after start.
import autocannon from 'autocannon';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { seedWallets, startSandbox } from './lib.js';

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 100_000);
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-memory-'));
  try {
    const dbPath = join(dir, 'memory.db');
    const sandbox = await openSandbox({ dbPath });
    const { developerId } = await ensureSandboxDeveloper(sandbox);
    const [a, b] = await seedWallets(sandbox, developerId, 2);
    await sandbox.close();
    const server = await startSandbox(dir, dbPath);
    const before = rss(server.pid);
    const result = await autocannon({
      url: `${server.baseUrl}/v1/wallets/${a.id}/transfer`,
      method: 'POST',
      connections: 16,
      amount: TRANSFERS,
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({ destination_account_number: b.account_number, amount: 1 }),
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = rss(server.pid);
    await server.stop();
    return [{ row: `sandbox RSS after ${TRANSFERS.toLocaleString('en')} transfers`, value: after, floor: before, unit: 'MB', floorLabel: 'just started', lowerIsBetter: true, target: '≤ 200 MB', met: after <= 200, note: `${result.requests.total} requests, non-2xx ${result.non2xx}` }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
