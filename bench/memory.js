// bench/memory: the sandbox's resident memory with --memory after 100,000 internal transfers, against
// its memory right after start: half of them made first through the engine in the bench process
// (the same writes, webhooks delivered) and restored into the server from a snapshot, the other
// half over HTTP (16 connections, webhooks delivered as they go). The same on a database file is the
// sustained run of bench/transfers (one load for its delivery, bytes and memory rows). One run: RSS
// moves little between runs, and each takes a minute or more.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServed } from './lib.js';

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 100_000);
/** Of TRANSFERS, made through the engine and restored from a snapshot: the server's memory is the same file's, in half the time. */
const PRELOAD = Math.round(TRANSFERS / 2);

const size = (file) => (existsSync(file) ? statSync(file).size : 0);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-memory-'));
  // The --memory sandbox's throw-away database file goes under TMPDIR: here, to be measured.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  try {
    let bytes = 0;
    let wal = 0;
    const memory = await loadServed(dir, ':memory:', {
      amount: TRANSFERS - PRELOAD,
      preload: PRELOAD,
      env: { TMPDIR: tmp },
      beforeStop: () => {
        const [folder] = readdirSync(tmp).filter((name) => name.startsWith('ledger-memory-'));
        const file = join(tmp, folder, 'sandbox.db');
        [bytes, wal] = [size(file), size(`${file}-wal`)];
      },
    });
    return [
      {
        row: `sandbox RSS after ${TRANSFERS.toLocaleString('en')} transfers, --memory`,
        value: memory.rssAfter,
        floor: memory.rssStarted,
        unit: 'MB',
        floorLabel: 'just started',
        lowerIsBetter: true,
        target: '≤ 400 MB',
        met: memory.rssAfter <= 400,
        note:
          `${memory.transfers.toLocaleString('en')} transfers: ` +
          `${memory.preload.toLocaleString('en')} made through the engine in the bench process ` +
          `(same writes, webhooks delivered; ${Math.round(memory.preloadSeconds)} s) ` +
          `and restored from a snapshot, ${memory.served.toLocaleString('en')} served over HTTP; ` +
          `non-2xx and errors ${memory.failures}, ${memory.backlog} deliveries waiting at the end; ` +
          `database ${mb(bytes)} (+ WAL ${mb(wal)}), a temporary file outside the heap`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
