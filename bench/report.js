// bench/report (`npm run bench -- report`, not in the default run: the big ledger takes minutes to
// load): the report's queries (GET /sandbox/report's buildReport, in one read transaction) on a
// ledger of 10,000 transactions and on one of 1,000,000, each with a delivery per transaction and a
// suspense item per 20, for the same period: one day holding the same rows in both (2,500 transfers,
// 250 suspense items, 100 failed attempts), every other row on the 30 days before it. The rows are
// written straight in SQL (as test/helpers/bulk-ledger.ts does; the engine makes a few thousand a
// second). Books made this way do not balance and are not audited: only the report reads them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { developerSeq, typeCode } from '../dist/engine/events/stored.js';
import { buildReport } from '../dist/engine/report/report.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { seedWallets, stats } from './lib.js';

const LARGE = Number(process.env.BENCH_REPORT_TRANSACTIONS ?? 1_000_000);
const SMALL = 10_000;
const WALLETS = 20;
/** Transfers on the day reported (two transactions each), the same at both sizes. */
const DAY_TRANSFERS = 2_500;
const DAY = Date.parse('2026-11-20T23:00:00.000Z'); // 00:00 in Lagos, 21 November
const SAMPLES = 21;
const WARM_UP = 10;

/** `transactions` transactions (half as many transfers) with their postings, entries, events and deliveries; one suspense item per 20. */
async function load(sandbox, developerId, wallets, transactions) {
  const transfers = Math.round(transactions / 2);
  const older = transfers - DAY_TRANSFERS;
  await sandbox.db.transaction().execute(async (trx) => {
    const accounts = (
      await trx
        .selectFrom('accounts')
        .select(['seq', 'id'])
        .where(
          'id',
          'in',
          wallets.map((w) => w.id),
        )
        .execute()
    ).map((a) => a.seq);
    const last = async (table) =>
      Number((await sql`SELECT coalesce(max(seq), 0) AS seq FROM ${sql.table(table)}`.execute(trx)).rows[0].seq);
    const [p, e, ev, lg] = [
      await last('postings'),
      await last('entries'),
      await last('events'),
      await last('webhook_logs'),
    ];
    const developer = await developerSeq(trx, developerId);
    // Transfer i: the day's last DAY_TRANSFERS 10 s apart from 00:00; the rest 5 s apart going back from it.
    await sql`CREATE TEMP TABLE bench_n AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${transfers})
      SELECT i, CASE WHEN i > ${older} THEN ${DAY} + (i - ${older}) * 10000 ELSE ${DAY} - (${older} - i + 1) * 5000 END AS at_ms FROM n`.execute(
      trx,
    );
    const account = (offset) =>
      sql.raw(`(CASE (i + ${offset}) % ${WALLETS} ${accounts.map((seq, k) => `WHEN ${k} THEN ${seq}`).join(' ')} END)`);
    await sql`INSERT INTO postings (seq, developer_id, kind, created_at) SELECT ${p} + i, ${developerId}, 'INTERNAL_TRANSFER', at_ms FROM bench_n`.execute(
      trx,
    );
    await sql`INSERT INTO entries (seq, posting_seq, account_seq, amount)
      SELECT ${e} + 2 * i - 1, ${p} + i, ${account(0)}, -1 FROM bench_n UNION ALL SELECT ${e} + 2 * i, ${p} + i, ${account(1)}, 1 FROM bench_n`.execute(
      trx,
    );
    const leg = (
      kind,
      type,
      offset,
      entry,
    ) => sql`SELECT printf('%08x-0000-7000-8${sql.raw(kind)}-%012x', ${transactions}, i), ${account(offset)}, ${p} + i,
      ${e} + 2 * i - ${entry}, ${type}, 1 + (${transfers} - i) % 5000, 0, 0, 'NGN', 'SETTLED', printf('%030d', i),
      'BENCH SENDER', '0123456789', 'Bench transfer', at_ms FROM bench_n`;
    await sql`INSERT INTO transactions (id, account_seq, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
      provider_reference, sender_name, sender_account, raw_narration, created_at) ${leg('001', 'DEBIT', 0, 1)} UNION ALL ${leg('002', 'CREDIT', 1, 0)}`.execute(
      trx,
    );
    // One ledger.credit event and delivery per transaction; the day's first 100 deliveries FAILED, with a 500 from the endpoint.
    await sql`INSERT INTO events (seq, id, developer_seq, type_code, payload, created_at_ms)
      SELECT ${ev} + 2 * i - k, randomblob(16), ${developer}, ${typeCode('ledger.credit')}, '{}', at_ms
      FROM bench_n, (SELECT 0 AS k UNION ALL SELECT 1)`.execute(trx);
    await sql`INSERT INTO webhook_logs (seq, id, developer_seq, event_seq, event_type_code, status, http_status_code, response_body, attempt_count)
      SELECT ${lg} + 2 * i - k, randomblob(16), ${developer}, ${ev} + 2 * i - k, ${typeCode('ledger.credit')},
        CASE WHEN i BETWEEN ${older + 1} AND ${older + 50} THEN 'FAILED' ELSE 'DELIVERED' END, 200, '{}', 1
      FROM bench_n, (SELECT 0 AS k UNION ALL SELECT 1)`.execute(trx);
    await sql`INSERT OR IGNORE INTO webhook_urls (url) VALUES ('http://127.0.0.1:9/bench')`.execute(trx);
    await sql`INSERT INTO webhook_attempts (id, log_seq, attempt_number, manual, url_seq, http_status_code, response_body, error, duration_ms, created_at_ms)
      SELECT randomblob(16), seq, 1, 0, (SELECT seq FROM webhook_urls WHERE url = 'http://127.0.0.1:9/bench'), 500, '{"error":"bench"}', NULL, 3, ${DAY}
      FROM webhook_logs WHERE status = 'FAILED' AND seq > ${lg}`.execute(trx);
    await sql`INSERT INTO suspense_items (id, developer_id, account_number, amount, sender_name, sender_account, sender_bank_code, raw_narration,
        provider_reference, reason, status, raw_payload, posting_seq, created_at)
      SELECT printf('00000000-0000-7000-8003-%012x', ${transfers} - i), ${developerId}, '0000000000', 100 + (${transfers} - i),
        'BENCH SENDER', '0123456789', '058', 'asdfgh',
        printf('9%029d', i), CASE (${transfers} - i) % 3 WHEN 0 THEN 'AI_LOW_CONFIDENCE' WHEN 1 THEN 'AI_RISK_FLAG' ELSE 'WALLET_CLOSED' END,
        CASE (${transfers} - i) % 4 WHEN 0 THEN 'RESOLVED' WHEN 1 THEN 'FLAGGED' ELSE 'PENDING' END, '{}', ${p} + i,
        strftime('%Y-%m-%dT%H:%M:%fZ', at_ms / 1000.0, 'unixepoch')
      FROM bench_n WHERE (${transfers} - i) % 10 = 0`.execute(trx);
    await sql`DROP TABLE bench_n`.execute(trx);
  });
}

/** A sandbox file holding `transactions` transactions; the report's time at it (ms per report). */
async function measure(dir, transactions) {
  const sandbox = await openSandbox({ dbPath: join(dir, `${transactions}.db`), backgroundCheckpoints: true });
  try {
    const { developerId } = await ensureSandboxDeveloper(sandbox);
    const wallets = await seedWallets(sandbox, developerId, WALLETS, 1_000_000);
    const started = performance.now();
    await load(sandbox, developerId, wallets, transactions);
    const loadSeconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `  report: ${transactions.toLocaleString('en')} transactions loaded in ${loadSeconds.toFixed(1)} s\n`,
    );
    const period = { since: DAY, until: DAY + 86_400_000 };
    const now = new Date(DAY + 86_400_000);
    const report = () => sandbox.db.transaction().execute((trx) => buildReport(trx, developerId, period, now));
    const first = await report();
    for (let i = 0; i < WARM_UP; i++) await report();
    const samples = [];
    for (let i = 0; i < SAMPLES; i++) {
      const at = performance.now();
      await report();
      samples.push(performance.now() - at);
    }
    return { times: stats(samples), loadSeconds, first };
  } finally {
    await sandbox.close();
  }
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-report-'));
  try {
    const small = await measure(dir, SMALL);
    const large = await measure(dir, LARGE);
    // The same day at both sizes: the same report, or the comparison is of different work.
    if (JSON.stringify(small.first) !== JSON.stringify(large.first))
      throw new Error(`the day's report differs: ${JSON.stringify(small.first)} vs ${JSON.stringify(large.first)}`);
    const counted = small.first.transactions.reduce((n, t) => n + t.count, 0);
    return [
      {
        row: `report of one day (${counted.toLocaleString('en')} of the rows), ${LARGE.toLocaleString('en')} transactions`,
        value: large.times,
        floor: small.times,
        unit: 'ms',
        floorLabel: `${SMALL.toLocaleString('en')} transactions`,
        target: '≤ 2× floor',
        met: large.times.median <= 2 * small.times.median,
        note: `median of ${SAMPLES}; loaded in ${small.loadSeconds.toFixed(1)} s and ${large.loadSeconds.toFixed(1)} s`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
