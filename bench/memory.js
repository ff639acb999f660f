// bench/memory: the sandbox's resident memory after 100,000 internal transfers over HTTP, against
// its memory right after start.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedTransfers } from './lib.js';

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 100_000);
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-memory-'));
  try {
    const { server, load } = await servedTransfers(dir, join(dir, 'memory.db'));
    const before = rss(server.pid);
    const result = await load({ amount: TRANSFERS });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = rss(server.pid);
    await server.stop();
    return [{ row: `sandbox RSS after ${TRANSFERS.toLocaleString('en')} transfers`, value: after, floor: before, unit: 'MB', floorLabel: 'just started', lowerIsBetter: true, target: '≤ 200 MB', met: after <= 200, note: `${result.requests.total} requests, non-2xx ${result.non2xx}` }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
