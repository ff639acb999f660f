// Bytes of the database per internal transfer, table by table and index by index: N transfers made
// through the engine (16 concurrent callers through the group commit, as the server does), their
// webhooks delivered to the built-in receiver, then `dbstat`. For iterating on the schema in
// seconds; the bench's own row is "database bytes per internal transfer" (bench/transfers.js).
// With `http`, the transfers go through the server's HTTP stack (app.inject, 16 at a time), so the
// request log keeps its rows too (docs/benchmarks.md, "Request log").
// Usage: npm run build && node bench/db-bytes.js [transfers=5000] [http]
import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { buildApp } from '../dist/sandbox/app.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { seedWallets } from './lib.js';

const N = Number(process.argv[2] ?? 5000);
const HTTP = process.argv[3] === 'http';
const dir = mkdtempSync(join(tmpdir(), 'ledger-bytes-'));
const dbPath = join(dir, 'bytes.db');
try {
  const sandbox = await openSandbox({ dbPath });
  const { developerId, apiKey } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  const app = await buildApp({ sandbox, logError: () => {} });
  app.setSelfUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
  app.scheduler.start();
  const body = { destination_account_number: b.account_number, amount: 1 };
  let next = 0;
  const caller = async () => {
    while (next++ < N) {
      if (!HTTP) await sandbox.write((trx) => transfer(trx, sandbox.envFor(developerId), developerId, a.id, body));
      else {
        const r = await app.inject({
          method: 'POST',
          url: `/v1/wallets/${a.id}/transfer`,
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        if (r.statusCode !== 200) throw new Error(`transfer answered ${r.statusCode}: ${r.body}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, caller));
  await app.scheduler.runDue(developerId);
  await app.close();
  await sandbox.close();

  const db = new SQLite(dbPath, { readonly: true });
  const transfers = db.prepare("SELECT count(*) AS n FROM postings WHERE kind = 'INTERNAL_TRANSFER'").get().n;
  const pending = db.prepare("SELECT count(*) AS n FROM webhook_logs WHERE status != 'DELIVERED'").get().n;
  const rows = db
    .prepare('SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload FROM dbstat GROUP BY name ORDER BY bytes DESC')
    .all();
  const receiver = (name) => name.includes('receiver_event');
  let ledger = 0;
  console.log(`${transfers} internal transfers, ${pending} deliveries not delivered`);
  console.log('name'.padEnd(44), 'B/transfer'.padStart(10), 'payload B'.padStart(10));
  for (const r of rows) {
    if (!receiver(r.name)) ledger += r.bytes;
    if (r.bytes / transfers < 1) continue;
    console.log(
      `${receiver(r.name) ? '(receiver) ' : ''}${r.name}`.padEnd(44),
      (r.bytes / transfers).toFixed(0).padStart(10),
      (r.payload / transfers).toFixed(0).padStart(10),
    );
  }
  console.log('ledger total (bench row)'.padEnd(44), (ledger / transfers).toFixed(0).padStart(10));
  const log = rows.filter((r) => r.name.startsWith('request_') || r.name === 'sqlite_autoindex_request_log_1');
  const logBytes = log.reduce((sum, r) => sum + r.bytes, 0);
  const logRows = db.prepare('SELECT count(*) AS n FROM request_log').get().n;
  if (logRows > 0)
    console.log(
      `request log: ${logRows} rows, ${logBytes} B (${(logBytes / logRows).toFixed(0)} B a row), ` +
        `${(logBytes / transfers).toFixed(1)} B per transfer here; at its bound of 1,000 rows a developer it is ` +
        `${((logBytes / logRows) * 1000).toFixed(0)} B, ${(((logBytes / logRows) * 1000) / 100_000).toFixed(1)} B per transfer over 100,000`,
    );
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
