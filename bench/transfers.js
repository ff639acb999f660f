// bench/transfers: internal transfers over HTTP (autocannon, 16 connections) against the same
// engine call in-process on identical databases, every side run ROUNDS times, interleaved. The HTTP
// side delivers the two webhooks of every transfer while it works (to the built-in receiver, the
// default) and is judged on that too: deliveries per second, the backlog when the load stops, and
// the time to drain it. Then one sustained 60 s load on a database file that ends with at least
// 100,000 transfers in it (40,000 made first through the engine, the rest over HTTP): whether
// deliveries keep pace, what the database holds per transfer afterwards, and the server's RSS
// after them (bench/memory has the --memory side).
import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, collect, engineSandbox, loadServed, ROUNDS, SECONDS, WARM_UP_SECONDS } from './lib.js';

/** Transfers in the database after the sustained run, at least: the same load gives the delivery, bytes and file-RSS rows. */
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 100_000);
/** How long the sustained load runs over HTTP (the delivery row: a sustained 60 s load). */
const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 60);
/**
 * Of TRANSFERS, made first through the engine in the bench process, with their deliveries (the
 * same writes as the server's, no HTTP, in about half the time): the sustained load then runs on a
 * database that already holds them, and HTTP tops it up to TRANSFERS if the 60 s made fewer.
 */
const PRELOAD = Math.round(TRANSFERS * 0.4);

/**
 * The floors, in-process on an identical database, no HTTP (`engineSandbox`):
 * - `callers: 1, deliveries: true`: the same engine call in its own database transaction, one after
 *   another (the SQL of one request), while the same dispatcher delivers the webhooks: the
 *   one-transaction floor that does the server's work (a target row is set only against a floor that
 *   does the same work);
 * - `callers: 1, deliveries: false`: the same, with the deliveries left for later (a floor that does
 *   less work than the server, kept as a row without a target);
 * - `callers: 16, deliveries: true`: the same engine call through the same group commit from as many
 *   concurrent callers as the HTTP run has connections, while the same dispatcher delivers the
 *   webhooks as the server does: everything the server does but HTTP;
 * - `callers: 16, deliveries: false`: the same, with the deliveries left for later (strict; one run,
 *   in the first round: it has no target).
 */
async function inProcess(dir, name, { callers, deliveries }) {
  const local = await engineSandbox(join(dir, `${name}.db`), { deliveries });
  await local.transfers({ callers, seconds: WARM_UP_SECONDS });
  const latencies = [];
  const count = await local.transfers({ callers, seconds: SECONDS, latencies });
  const auditOk = await local.close();
  latencies.sort((x, y) => x - y);
  return { perSecond: count / SECONDS, p99: latencies[Math.floor(latencies.length * 0.99)], auditOk };
}

/**
 * Bytes of the database per internal transfer in it, split into the ledger's own tables and the
 * built-in receiver's record, with the ledger's tables (each with its indexes) largest first.
 */
function bytesPerTransfer(dbPath) {
  const db = new SQLite(dbPath, { readonly: true });
  try {
    const transfers = db.prepare("SELECT count(*) AS n FROM postings WHERE kind = 'INTERNAL_TRANSFER'").get().n;
    const rows = db
      .prepare(
        'SELECT coalesce(s.tbl_name, d.name) AS name, sum(d.pgsize) AS bytes FROM dbstat d ' +
          'LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY 1 ORDER BY 2 DESC',
      )
      .all();
    const receiver = rows.filter((r) => r.name.startsWith('receiver_event')).reduce((sum, r) => sum + r.bytes, 0);
    const all = rows.reduce((sum, r) => sum + r.bytes, 0);
    const largest = rows
      .filter((r) => !r.name.startsWith('receiver_event'))
      .slice(0, 5)
      .map((r) => `${r.name} ${Math.round(r.bytes / transfers)}`);
    return { ledger: (all - receiver) / transfers, receiver: receiver / transfers, largest: largest.join(', ') };
  } finally {
    db.close();
  }
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  try {
    const sides = { http: [], grouped: [], strict: [], serial: [], serialBare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // HTTP first in each round: autocannon shares this process, and the floors leave its heap full.
      const dbPath = join(dir, `http-${round}.db`);
      sides.http.push(await loadServed(dir, dbPath, { seconds: SECONDS }));
      rmSync(dbPath, { force: true });
      sides.grouped.push(await inProcess(dir, `grouped-${round}`, { callers: CONNECTIONS, deliveries: true }));
      // The strict floor has no target (it shows what HTTP and delivering cost together): one run.
      if (round === 0)
        sides.strict.push(await inProcess(dir, `strict-${round}`, { callers: CONNECTIONS, deliveries: false }));
      sides.serial.push(await inProcess(dir, `serial-${round}`, { callers: 1, deliveries: true }));
      sides.serialBare.push(await inProcess(dir, `serial-bare-${round}`, { callers: 1, deliveries: false }));
    }
    const http = collect(sides.http);
    const grouped = collect(sides.grouped);
    const strict = collect(sides.strict);
    const serial = collect(sides.serial);
    const serialBare = collect(sides.serialBare);
    const audits = Object.values(sides).every((runs) => runs.every((r) => r.auditOk)) ? 'clean' : 'FAILED';
    const failures = sides.http.reduce((sum, r) => sum + r.failures, 0);

    // One sustained load on a database file: whether deliveries keep pace, what the database holds
    // per transfer afterwards, and the server's memory after that many transfers.
    const sustainedDb = join(dir, 'sustained.db');
    const sustained = await loadServed(dir, sustainedDb, {
      seconds: SUSTAIN_SECONDS,
      preload: PRELOAD,
      upTo: TRANSFERS,
    });
    const perTransfer = bytesPerTransfer(sustainedDb);
    const rate = (x) => `${Math.round(x).toLocaleString('en')}/s`;
    const label = TRANSFERS.toLocaleString('en');
    return [
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn`,
        value: http.perSecond,
        floor: serial.perSecond,
        unit: '/s',
        floorLabel: 'same SQL in-process, one transaction each, same deliveries',
        target: '≥ 1.0× floor',
        met: http.perSecond.median >= serial.perSecond.median,
        note: `non-2xx and errors ${failures}, audits ${audits}`,
      },
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn (one-transaction floor without deliveries)`,
        value: http.perSecond,
        floor: serialBare.perSecond,
        unit: '/s',
        floorLabel: 'same SQL in-process, one transaction each, deliveries left for later',
        target: '—',
        note: 'a floor that does less work than the server (no target)',
      },
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn, webhooks delivered as it goes`,
        value: http.perSecond,
        floor: grouped.perSecond,
        unit: '/s',
        floorLabel: `same group commit in-process, ${CONNECTIONS} callers, same deliveries`,
        target: '≥ 0.8× floor',
        met: http.perSecond.median >= 0.8 * grouped.perSecond.median,
        note: `deliveries/s ${rate(http.deliveriesPerSecond.median)} for events/s ${rate(http.eventsPerSecond.median)}`,
      },
      {
        row: `internal transfers/s, HTTP ${CONNECTIONS} conn (strict floor)`,
        value: http.perSecond,
        floor: strict.perSecond,
        unit: '/s',
        floorLabel: `same group commit in-process, ${CONNECTIONS} callers, deliveries left for later`,
        target: '—',
        note: 'what HTTP and delivering cost together; the floor is one run (no target)',
      },
      {
        row: `transfer p99 latency, HTTP ${CONNECTIONS} conn`,
        value: http.p99,
        floor: grouped.p99,
        unit: 'ms',
        floorLabel: `in-process p99, ${CONNECTIONS} callers, same deliveries`,
        lowerIsBetter: true,
        target: '≤ 20 ms',
        met: http.p99.median <= 20,
        note: `p50 ${http.p50.median} ms`,
      },
      {
        row: `webhook backlog when a ${SECONDS} s load stops`,
        value: http.backlogSeconds,
        floor: 1,
        unit: 's of events',
        floorLabel: 'target',
        lowerIsBetter: true,
        target: '≤ 1 s of events',
        met: http.backlogSeconds.median <= 1,
        note: `${Math.round(http.backlog.median)} deliveries waiting; drained in ${Math.round(http.drainMs.median)} ms`,
      },
      {
        row: `webhooks delivered/s over a sustained ${SUSTAIN_SECONDS} s transfer load`,
        value: sustained.deliveriesPerSecond,
        floor: sustained.eventsPerSecond,
        unit: '/s',
        floorLabel: 'events created/s, same run',
        target: 'backlog ≤ 1 s of events',
        met: sustained.backlogSeconds <= 1,
        note:
          `${Math.round(sustained.seconds)} s at ${rate(sustained.perSecond)} transfers, p99 ${sustained.p99} ms, ` +
          `on a database file holding ${sustained.preload.toLocaleString('en')} transfers made first through the engine; ` +
          `${sustained.backlog} waiting at the end (${sustained.backlogSeconds.toFixed(2)} s of events), drained in ${Math.round(sustained.drainMs)} ms; ` +
          `audit ${sustained.auditOk ? 'clean' : 'FAILED'}`,
      },
      {
        row: 'database bytes per internal transfer (2 transactions, their events and deliveries)',
        value: perTransfer.ledger,
        floor: 1536,
        unit: 'B',
        floorLabel: 'target',
        lowerIsBetter: true,
        target: '≤ 1.5 KB',
        met: perTransfer.ledger <= 1536,
        note:
          `after the sustained run; ` +
          `the built-in receiver's record of the deliveries adds ${Math.round(perTransfer.receiver)} B; ` +
          `largest, with their indexes: ${perTransfer.largest} B`,
      },
      {
        row: `sandbox RSS after ${label} transfers, database file`,
        value: sustained.rssAfter,
        floor: sustained.rssStarted,
        unit: 'MB',
        floorLabel: 'just started',
        lowerIsBetter: true,
        target: '≤ 200 MB',
        met: sustained.rssAfter <= 200,
        note:
          `the sustained run: ${sustained.transfers.toLocaleString('en')} transfers in the database, ` +
          `${sustained.preload.toLocaleString('en')} of them made first through the engine in the bench process ` +
          `(same writes, webhooks delivered; ${Math.round(sustained.preloadSeconds)} s), ` +
          `${sustained.served.toLocaleString('en')} served over HTTP; ` +
          `non-2xx and errors ${sustained.failures}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
