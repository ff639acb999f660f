// bench/snapshots: how long `POST /sandbox/snapshots/:name/restore` takes on a running `sandbox start
// --memory` for a snapshot of 10,000 and of 100,000 transactions, against starting a fresh
// `sandbox start --memory` (spawn to listening): what a test suite pays per case either way. The
// 100,000 are the 50,000 transfers (and 2 credits) with their deliveries that bench/memory starts
// from, built once per run (lib.js preloadSnapshot).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { copyDatabase } from '../dist/engine/db/sqlite/snapshot.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { median, preloadSnapshot, seedWallets, startSandbox } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** The transfers of bench/memory's preload (half of BENCH_TRANSFERS): the larger snapshot, two transactions each. */
const SHARED = Math.round(Number(process.env.BENCH_TRANSFERS ?? 100_000) / 2);

/**
 * A snapshot file holding `count` transactions made by the engine: internal transfers between two
 * wallets (two transactions each, with their postings, entries, events and webhook deliveries).
 */
async function snapshotOf(dir, count, name) {
  const sandbox = await openSandbox({ dbPath: join(dir, `source-${count}.db`) });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  const env = sandbox.envFor(developerId);
  for (let made = 2; made < count;) {
    await sandbox.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 500 && made < count; i++, made += 2) {
        await transfer(trx, env, developerId, i % 2 ? a.id : b.id, {
          destination_account_number: i % 2 ? b.account_number : a.account_number,
          amount: 1,
        });
      }
    });
  }
  // Where `sandbox start` with LEDGER_HOME=dir keeps its named snapshots.
  mkdirSync(join(dir, 'snapshots'), { recursive: true });
  const file = join(dir, 'snapshots', `${name}.db`);
  await copyDatabase(sandbox.db, file, { saved_at: env.clock.now().toISOString() });
  await sandbox.close();
  return name;
}

async function timeStart(dir) {
  const started = performance.now();
  const server = await startSandbox(dir, null);
  const ms = performance.now() - started;
  await server.stop();
  return ms;
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-snapshots-'));
  try {
    const names = { 10_000: await snapshotOf(dir, 10_000, 'ten-thousand'), [2 * SHARED]: 'hundred-thousand' };
    copyFileSync((await preloadSnapshot(SHARED)).file, join(dir, 'snapshots', 'hundred-thousand.db'));
    await timeStart(dir); // warm the file cache
    const starts = [];
    for (let i = 0; i < RUNS; i++) starts.push(await timeStart(dir));
    const floor = median(starts);
    const server = await startSandbox(dir, null);
    const rows = [];
    try {
      for (const [count, name] of Object.entries(names)) {
        const samples = [];
        for (let i = 0; i <= RUNS; i++) {
          const started = performance.now();
          const answer = await server.call('POST', `/sandbox/snapshots/${name}/restore`);
          if (!answer.success) throw new Error(`restore failed: ${JSON.stringify(answer)}`);
          if (i > 0) samples.push(performance.now() - started);
        }
        const audit = await server.call('GET', '/sandbox/audit');
        const label = Number(count).toLocaleString('en');
        rows.push({
          row: `snapshot restore, ${label} transactions (--memory)`,
          value: median(samples),
          floor,
          unit: 'ms',
          floorLabel: 'fresh `sandbox start --memory` until listening',
          lowerIsBetter: true,
          target: '—',
          note: `median of ${RUNS}, audit ${audit.data.ok ? 'clean' : 'NOT clean'}, ${audit.data.checked.transactions} transactions checked`,
        });
      }
    } finally {
      await server.stop();
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
