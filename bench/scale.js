// bench/scale: list and get latency over HTTP with 1,000,000 transactions on a wallet, against the
// same requests with 1,000.
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { median, seedWallets, startSandbox } from './lib.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

/** Bulk-loads `rows` CREDIT transactions of 1 kobo onto one wallet with plain SQL (latency only; the data is not a real ledger). */
async function build(dir, name, rows) {
  const dbPath = join(dir, `${name}.db`);
  const sandbox = await openSandbox({ dbPath });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [wallet] = await seedWallets(sandbox, developerId, 1, 1_000);
  const first = await sandbox.db.selectFrom('transactions').selectAll().where('wallet_id', '=', wallet.id).executeTakeFirstOrThrow();
  await sql`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1})
    INSERT INTO transactions (id, developer_id, wallet_id, posting_id, entry_id, type, amount, balance_before, balance_after, currency, status,
      provider_reference, sender_name, sender_account, raw_narration, service_intelligence, created_at, updated_at)
    SELECT lower(hex(randomblob(16))), ${developerId}, ${wallet.id}, ${first.posting_id}, ${first.entry_id}, CASE WHEN i % 3 = 0 THEN 'DEBIT' ELSE 'CREDIT' END,
      1, 1000, 1000, 'NGN', 'SETTLED', 'BULK-' || i, 'BULK', '', 'bulk row', NULL,
      strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' seconds'), strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' seconds')
    FROM n`.execute(sandbox.db);
  await sql`DELETE FROM transaction_counts`.execute(sandbox.db);
  await sql`INSERT INTO transaction_counts (wallet_id, type, n) SELECT wallet_id, type, count(*) FROM transactions GROUP BY wallet_id, type`.execute(sandbox.db);
  const last = await sandbox.db.selectFrom('transactions').select('id').orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();
  await sandbox.close();
  return { dbPath, walletId: wallet.id, txId: last.id };
}

async function measure(dir, data) {
  const server = await startSandbox(dir, data.dbPath);
  const time = async (path) => {
    const samples = [];
    for (let i = 0; i < 60; i++) {
      const start = performance.now();
      await server.call('GET', path);
      samples.push(performance.now() - start);
    }
    return median(samples.slice(10));
  };
  const result = {
    list: await time(`/v1/wallets/${data.walletId}/transactions?limit=20`),
    listNewest: await time(`/v1/wallets/${data.walletId}/transactions?limit=20&order=desc&type=DEBIT`),
    get: await time(`/v1/transactions/${data.txId}`),
  };
  await server.stop();
  return result;
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-scale-'));
  try {
    const small = await measure(dir, await build(dir, 'small', 1_000));
    const large = await measure(dir, await build(dir, 'large', ROWS));
    const label = ROWS.toLocaleString('en');
    return [
      { row: `list transactions, oldest page, ${label} rows`, value: large.list, floor: small.list, unit: 'ms', floorLabel: '1,000 rows', lowerIsBetter: true, target: '≤ 2× floor', met: large.list <= 2 * small.list },
      { row: `list DEBITs, newest page, ${label} rows`, value: large.listNewest, floor: small.listNewest, unit: 'ms', floorLabel: '1,000 rows', lowerIsBetter: true, target: '≤ 2× floor', met: large.listNewest <= 2 * small.listNewest },
      { row: `get transaction, ${label} rows`, value: large.get, floor: small.get, unit: 'ms', floorLabel: '1,000 rows', lowerIsBetter: true, target: '≤ 2× floor', met: large.get <= 2 * small.get },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
