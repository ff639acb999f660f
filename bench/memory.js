// bench/memory: the sandbox's resident memory after 100,000 internal transfers over HTTP (16
// connections, webhooks delivered as they go), on a database file and with --memory, against its
// memory right after start. One run of each: RSS moves little between runs, and each takes a minute.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rss, servedTransfers } from './lib.js';

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 100_000);

/** The database file a sandbox uses: the --memory sandbox's throw-away one is under `tmp`. */
function databaseFile(dbPath, tmp) {
  if (dbPath !== ':memory:') return dbPath;
  const [folder] = readdirSync(tmp).filter((name) => name.startsWith('ledger-memory-'));
  return join(tmp, folder, 'sandbox.db');
}

const size = (file) => (existsSync(file) ? statSync(file).size : 0);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function after(dir, dbPath, tmp) {
  const { server, load } = await servedTransfers(dir, dbPath, { TMPDIR: tmp });
  const before = rss(server.pid);
  const result = await load({ amount: TRANSFERS });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const value = rss(server.pid);
  const backlog = (await server.call('GET', '/v1/webhook-logs?status=PENDING&limit=1')).data.total;
  const file = databaseFile(dbPath, tmp);
  const [bytes, wal] = [size(file), size(`${file}-wal`)];
  await server.stop();
  return { before, value, requests: result.requests.total, failures: result.non2xx + result.errors, backlog, bytes, wal };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-memory-'));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  try {
    const file = await after(dir, join(dir, 'memory.db'), tmp);
    const memory = await after(dir, ':memory:', tmp);
    const label = TRANSFERS.toLocaleString('en');
    const note = (r) => `${r.requests} requests, non-2xx and errors ${r.failures}, ${r.backlog} deliveries waiting; database file ${mb(r.bytes)} (+ WAL ${mb(r.wal)})`;
    return [
      { row: `sandbox RSS after ${label} transfers, database file`, value: file.value, floor: file.before, unit: 'MB', floorLabel: 'just started', lowerIsBetter: true, target: '≤ 200 MB', met: file.value <= 200, note: note(file) },
      {
        row: `sandbox RSS after ${label} transfers, --memory`,
        value: memory.value,
        floor: memory.before,
        unit: 'MB',
        floorLabel: 'just started',
        lowerIsBetter: true,
        target: '≤ 400 MB',
        met: memory.value <= 400,
        note: `${note(memory)}, a temporary file outside the heap`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
