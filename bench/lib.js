// Shared pieces of the benchmarks: a sandbox in its own process, seeded wallets, interleaved runs
// and their statistics.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { audit } from '../dist/engine/audit/audit.service.js';
import { copyDatabase } from '../dist/engine/db/sqlite/snapshot.js';
import { receiveInbound } from '../dist/engine/inbound/inbound.service.js';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { createWallet } from '../dist/engine/wallets/wallets.service.js';
import { buildApp } from '../dist/sandbox/app.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';

export const BIN = resolve(import.meta.dirname, '../bin/ledger.js');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Rounds of every measured pair: A B A B A B, the median reported with min and max. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Concurrent connections of every HTTP load (the targets are set at 16). */
export const CONNECTIONS = 16;

/** Creates funded wallets through the engine (same statements as the API). */
export async function seedWallets(sandbox, developerId, count, fund = 1_000_000_000_000) {
  const wallets = [];
  for (let i = 0; i < count; i++) {
    const reference = `bench-${i}-${Math.random().toString(36).slice(2, 8)}`;
    const wallet = await sandbox.db.transaction().execute((trx) =>
      createWallet(trx, sandbox.envFor(developerId), developerId, {
        customer_reference: reference,
        first_name: 'Bench',
        last_name: `W${i}`,
        email: `${reference}@example.com`,
      }),
    );
    if (fund)
      await sandbox.db.transaction().execute((trx) =>
        receiveInbound(trx, sandbox.envFor(developerId), developerId, {
          account_number: wallet.account_number,
          amount: fund,
          narration: 'salary',
        }),
      );
    wallets.push(wallet);
  }
  return wallets;
}

/**
 * A sandbox on `dbPath` in this process with two funded wallets, and `transfers(options)`: internal
 * transfers of 1 kobo from one to the other through the engine, no HTTP. With `deliveries`, the
 * server's own app runs beside it (listening, its timer started), so its dispatcher delivers the
 * webhooks of every transfer to the built-in receiver while they are made, as the server does.
 * `close()` delivers what is still due, audits and closes; it resolves with whether the audit was clean.
 */
export async function engineSandbox(dbPath, { deliveries }) {
  const sandbox = await openSandbox({ dbPath, backgroundCheckpoints: true });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  const app = deliveries ? await buildApp({ sandbox, logError: () => {} }) : undefined;
  if (app) {
    app.setSelfUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
    app.scheduler.start();
  }
  const body = { destination_account_number: b.account_number, amount: 1 };
  const work = (trx) => transfer(trx, sandbox.envFor(developerId), developerId, a.id, body);
  return {
    sandbox,
    wallets: [a, b],
    /**
     * `callers` concurrent callers through the group commit (`callers: 1`: each transfer in its own
     * database transaction, one after another), for `seconds` or until `amount` are made; pushes
     * each one's latency in ms to `latencies` when given. Resolves with how many were made.
     */
    async transfers({ callers, seconds, amount = Infinity, latencies }) {
      const deadline = seconds ? performance.now() + seconds * 1000 : Infinity;
      let count = 0;
      const caller = async () => {
        while (performance.now() < deadline && count < amount) {
          count++;
          const start = performance.now();
          await (callers === 1 ? sandbox.db.transaction().execute(work) : sandbox.write(work));
          latencies?.push(performance.now() - start);
          // One at a time with deliveries: the event loop takes a turn between two transfers, as a
          // server's does between two requests, or the dispatcher never runs (its statements
          // resolve at once, so the loop above would hold the thread until the time is up).
          if (callers === 1 && app) await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await Promise.all(Array.from({ length: callers }, caller));
      return count;
    },
    /** A consistent copy of the database as a named snapshot of a `sandbox start` whose LEDGER_HOME is `dir`. */
    async snapshot(dir, name) {
      mkdirSync(join(dir, 'snapshots'), { recursive: true });
      await copyDatabase(sandbox.db, join(dir, 'snapshots', `${name}.db`), {
        saved_at: sandbox.envFor(developerId).clock.now().toISOString(),
      });
    },
    async close() {
      if (app) {
        await app.scheduler.runDue(developerId);
        await app.close();
      }
      const report = await audit(sandbox.db);
      await sandbox.close();
      return report.ok;
    },
  };
}

/** `ledger sandbox start` in its own process (on `dbPath`, or `--memory` when it is `null` or `:memory:`); resolves with its URL, key and a stop(). */
export async function startSandbox(dir, dbPath, extra = [], env = {}) {
  const where = dbPath === null || dbPath === ':memory:' ? ['--memory'] : ['--db', dbPath];
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', ...where, '--port', '0', ...extra], {
    cwd: dir,
    env: { ...process.env, LEDGER_HOME: dir, ...env },
  });
  const [baseUrl, apiKey] = await new Promise((resolveUrl, reject) => {
    let out = '';
    // Only until the banner: left attached, it kept every request's log line and ran the pattern
    // over all of them at each chunk, in the process that also runs the load (docs/benchmarks.md).
    const onData = (chunk) => {
      out += chunk;
      const match = /listening on (\S+)\nAPI key\s+(\S+)/.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      resolveUrl([match[1], match[2]]);
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  child.stdout.resume();
  return {
    baseUrl,
    apiKey,
    pid: child.pid,
    call: (method, path, body) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.json()),
    stop: () =>
      new Promise((done) => {
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Two funded wallets seeded through the engine in `dbPath`, served by `ledger sandbox start` in its
 * own process, and `load(options)`: internal transfers of 1 kobo from one to the other with
 * autocannon (CONNECTIONS connections; pass `duration` in seconds or `amount` of requests).
 * `:memory:` starts `--memory` and creates the wallets over HTTP. `preload` transfers are made
 * first through the engine in this process, with their webhooks delivered (`engineSandbox`: the
 * same writes as the server's, without HTTP), in `dbPath`, or for `--memory` in a snapshot that the
 * server restores before the load.
 */
export async function servedTransfers(dir, dbPath, { env = {}, preload = 0 } = {}) {
  let a;
  let b;
  let preloadSeconds = 0;
  const memory = dbPath === ':memory:';
  if (memory && preload > 0) {
    const shared = await preloadSnapshot(preload);
    [a, b] = shared.wallets;
    preloadSeconds = shared.seconds;
    mkdirSync(join(dir, 'snapshots'), { recursive: true });
    copyFileSync(shared.file, join(dir, 'snapshots', 'preload.db'));
  } else if (!memory) {
    const made = await engineTransfers(dbPath, preload);
    [a, b] = made.wallets;
    preloadSeconds = made.seconds;
  }
  const server = await startSandbox(dir, dbPath, [], env);
  const rssStarted = rss(server.pid);
  if (memory && preload > 0) {
    const restored = await server.call('POST', '/sandbox/snapshots/preload/restore');
    if (!restored.success) throw new Error(`restore failed: ${JSON.stringify(restored)}`);
  } else if (memory) {
    const wallet = (ref) =>
      server
        .call('POST', '/v1/wallets', {
          customer_reference: ref,
          first_name: 'Bench',
          last_name: ref,
          email: `${ref}@example.com`,
        })
        .then((r) => r.data);
    a = await wallet('bench-a');
    b = await wallet('bench-b');
    await server.call('POST', '/sandbox/inbound-transfers', {
      account_number: a.account_number,
      amount: 1_000_000_000_000,
      narration: 'salary',
    });
  }
  const load = (options) =>
    autocannon({
      url: `${server.baseUrl}/v1/wallets/${a.id}/transfer`,
      method: 'POST',
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({ destination_account_number: b.account_number, amount: 1 }),
      ...options,
    });
  return { server, load, wallets: [a, b], rssStarted, preloadSeconds };
}

const preloads = new Map();

/**
 * A snapshot of `transfers` internal transfers made through the engine with their webhooks delivered
 * (`engineSandbox`), built once per bench process and shared: bench/snapshots restores it (its
 * 100,000-transaction row) and bench/memory's --memory server starts from it, which each built
 * for themselves before (about 20 and 30 s). Resolves with the file, its two wallets and how long
 * the transfers took, in s; the file is removed when the process exits.
 */
export function preloadSnapshot(transfers) {
  if (!preloads.has(transfers)) preloads.set(transfers, buildPreload(transfers));
  return preloads.get(transfers);
}

async function buildPreload(transfers) {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-preload-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const made = await engineTransfers(join(dir, 'preload.db'), transfers, (local) => local.snapshot(dir, 'preload'));
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `preload.db${suffix}`), { force: true });
  return { file: join(dir, 'snapshots', 'preload.db'), ...made };
}

/**
 * Two funded wallets and `transfers` internal transfers between them made through the engine in
 * `dbPath`, their webhooks delivered when there are any (`engineSandbox`); `before(local)` runs
 * before it is audited and closed. Resolves with the wallets and how long the transfers took, in s.
 */
async function engineTransfers(dbPath, transfers, before) {
  const local = await engineSandbox(dbPath, { deliveries: transfers > 0 });
  const began = performance.now();
  if (transfers > 0) await local.transfers({ callers: CONNECTIONS, amount: transfers });
  const seconds = (performance.now() - began) / 1000;
  await before?.(local);
  if (!(await local.close())) throw new Error('the preloaded database is not consistent (audit)');
  return { wallets: local.wallets, seconds };
}

/** The resident memory of a process, in MB. */
export const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Every HTTP load runs this long before its measured part: JIT compilation and first-use statement preparation are not steady state. */
export const WARM_UP_SECONDS = 2;

const logTotal = async (server, query = '') =>
  (await server.call('GET', `/v1/webhook-logs?limit=1${query}`)).data.total;

/** Polls until no delivery is waiting; resolves with how long that took, in ms. */
async function drained(server) {
  const started = performance.now();
  while ((await logTotal(server, '&status=PENDING')) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  return performance.now() - started;
}

/**
 * `servedTransfers` under load: `seconds` long after a warm-up (WARM_UP_SECONDS), or `amount`
 * transfers from the start (no warm-up: a memory row counts every transfer), after `preload` made
 * through the engine (see servedTransfers). Measures throughput and latency; how deliveries kept up
 * (events and deliveries made during the measured load, the backlog when it stopped, the time to
 * drain it); then, with `upTo`, tops the database up over HTTP to `upTo` transfers in all (preload,
 * warm-up and measured load included); the audit; and the server's RSS just started and once the
 * last backlog is drained. `beforeStop` runs while the server still runs (its files still there).
 * Leaves the database at `dbPath` for the caller to inspect or remove.
 */
export async function loadServed(dir, dbPath, { seconds, amount, preload = 0, upTo = 0, env = {}, beforeStop }) {
  const { server, load, rssStarted, preloadSeconds } = await servedTransfers(dir, dbPath, { env, preload });
  let served = seconds ? (await load({ duration: WARM_UP_SECONDS })).requests.total : 0;
  const [eventsBefore, deliveredBefore] = [await logTotal(server), await logTotal(server, '&status=DELIVERED')];
  const began = performance.now();
  const result = await load(seconds ? { duration: seconds } : { amount });
  const elapsed = (performance.now() - began) / 1000;
  const [events, delivered, backlog] = [
    (await logTotal(server)) - eventsBefore,
    (await logTotal(server, '&status=DELIVERED')) - deliveredBefore,
    await logTotal(server, '&status=PENDING'),
  ];
  const drainMs = await drained(server);
  served += result.requests.total;
  let failures = result.non2xx + result.errors;
  if (preload + served < upTo) {
    const topUp = await load({ amount: upTo - preload - served });
    served += topUp.requests.total;
    failures += topUp.non2xx + topUp.errors;
    await drained(server);
  }
  const rssAfter = rss(server.pid);
  const auditOk = (await server.call('GET', '/sandbox/audit')).data.ok;
  beforeStop?.();
  await server.stop();
  return {
    perSecond: result.requests.total / elapsed,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures,
    seconds: elapsed,
    eventsPerSecond: events / elapsed,
    deliveriesPerSecond: delivered / elapsed,
    backlog,
    backlogSeconds: backlog / (events / elapsed),
    drainMs,
    auditOk,
    /** Transfers in the database: preloaded, and served over HTTP (warm-up, measured load and top-up). */
    transfers: preload + served,
    served,
    preload,
    /** How long the preload took (its transfers, with their deliveries), in s. */
    preloadSeconds,
    rssStarted,
    rssAfter,
  };
}

/** A measure over several runs: the median to quote, with the smallest and largest beside it. */
export function stats(samples) {
  const sorted = [...samples].sort((x, y) => x - y);
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)],
    min: sorted[0],
    max: sorted[sorted.length - 1],
    samples,
  };
}

/**
 * Runs `a` and `b` in turn, A B A B A B (`rounds` of each), so a machine that speeds up or slows
 * down during the run weighs on both sides alike; `warmUp` runs of each go first and are not kept
 * (a whole process's first run pays for a cold file cache). Each call returns one sample (or an
 * object of samples: then every key is collected), or a promise of it: a load measured in this
 * process, or a whole process timed with `wall`. Resolves with stats of each side (per key for objects).
 * @example const { a, b } = await interleave(() => timeHttp(), () => timeFloor()); // a.median, a.min, a.max
 * @example const times = await interleave(() => wall('ledger', ['--help']), () => wall('node', ['-e', '']), ROUNDS, { warmUp: 1 });
 */
export async function interleave(a, b, rounds = ROUNDS, { warmUp = 0 } = {}) {
  for (let i = 0; i < warmUp; i++) {
    await a(-1);
    await b(-1);
  }
  const runs = { a: [], b: [] };
  for (let i = 0; i < rounds; i++) {
    runs.a.push(await a(i));
    runs.b.push(await b(i));
  }
  return { a: collect(runs.a), b: collect(runs.b) };
}

/** Stats of numbers, or of each key of objects of numbers. */
export function collect(samples) {
  if (typeof samples[0] === 'number') return stats(samples);
  return Object.fromEntries(
    Object.keys(samples[0]).map((key) => [
      key,
      typeof samples[0][key] === 'number' ? stats(samples.map((s) => s[key])) : samples.map((s) => s[key]),
    ]),
  );
}

export const median = (values) => stats(values).median;
export const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/** Wall time of one whole process, in ms (its output thrown away, as a script's capture would keep it). */
export function wall(command, args, options = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** A table row from `interleave`d wall times: side A (median, min–max) against side B (the floor), with a target as a multiple of the floor. */
export function row(name, times, floorLabel, target) {
  return {
    row: name,
    value: times.a,
    floor: times.b,
    unit: 'ms',
    floorLabel,
    lowerIsBetter: true,
    target: target ? `≤ ${target}× floor` : '—',
    ...(target ? { met: times.a.median <= target * times.b.median } : {}),
    note: `median of ${times.a.samples.length} interleaved`,
  };
}
