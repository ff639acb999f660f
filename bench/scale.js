// bench/scale (`npm run bench -- scale`, not in the default run): a sandbox of 1,000 wallets and
// 1,000,000 transactions, loaded through the engine (internal transfers between random wallets,
// each with its events, webhook logs and deliveries to the built-in receiver, as a running sandbox
// makes them), against the same built to 10,000 transactions. Each is built in a child process and
// then served by a server started in this one, as `ledger sandbox start` on an existing database
// is, so its event loop is measured directly (monitorEventLoopDelay) while health probes go to it
// over HTTP. Built in this process, the server measured afterwards carried the heap of a million
// writes made by another sandbox instance, already closed, that no server's process holds: its
// collections then paused it for up to 24 ms (mark-compact) during the reset (docs/benchmarks.md).
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, get, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { transfer } from '../dist/engine/transfers/transfers.service.js';
import { buildApp } from '../dist/sandbox/app.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';
import { startServer } from '../dist/sandbox/server.js';
import { CONNECTIONS, rss, seedWallets, stats } from './lib.js';

const TRANSACTIONS = Number(process.env.BENCH_SCALE_TRANSACTIONS ?? 1_000_000);
const SMALL = 10_000;
const WALLETS = Number(process.env.BENCH_SCALE_WALLETS ?? 1_000);
/** Requests per list timing; the median is reported with min and max. */
const SAMPLES = 21;
/**
 * Requests to each list before it is timed. The first 10 or so of a list on a fresh server take
 * 8–9 ms at 10,000 transactions and at 1,000,000 alike (V8 compiling that path), then 3–4 ms: with
 * one warm-up the 21 timed straddled the change, and the median fell on either side of it by chance
 * (2.48× in one run, 0.87–1.61× in others, for the same list).
 */
const WARM_UP = 20;

/** Builds a sandbox of WALLETS funded wallets and about `transactions` transactions through the engine, with their deliveries. */
export async function build(dir, name, transactions) {
  const dbPath = join(dir, `${name}.db`);
  const sandbox = await openSandbox({ dbPath, backgroundCheckpoints: true });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const app = await buildApp({ sandbox, logError: (error) => console.error(error) });
  app.setSelfUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
  app.scheduler.start();
  const wallets = await seedWallets(sandbox, developerId, WALLETS, 1_000_000_000);
  const transfers = Math.max(0, Math.round((transactions - WALLETS) / 2));
  const env = sandbox.envFor(developerId);
  let next = 0;
  let state = 12345;
  const pick = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % WALLETS;
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < transfers) {
        const from = pick();
        const to = (from + 1 + (pick() % (WALLETS - 1))) % WALLETS;
        await sandbox.write((trx) =>
          transfer(trx, env, developerId, wallets[from].id, {
            destination_account_number: wallets[to].account_number,
            amount: 1,
          }),
        );
        if (next % 100_000 === 0)
          process.stderr.write(
            `  ${name}: ${next.toLocaleString('en')} of ${transfers.toLocaleString('en')} transfers\n`,
          );
      }
    }),
  );
  const perSecond = transfers / ((performance.now() - started) / 1000);
  await app.scheduler.runDue(developerId);
  await app.close();
  await sandbox.close();
  return { dbPath, perSecond, wallets };
}

const bytesOf = (path) => [path, `${path}-wal`].filter(existsSync).reduce((sum, file) => sum + statSync(file).size, 0);

/**
 * Health probes from another process, one at a time over one kept-alive connection, until told to
 * stop; then the number answered and the slowest. From another process, as a user's client is:
 * a probe loop in the server's own process spent its CPU and made its garbage on the thread
 * measured, and its pauses for collecting that garbage were counted as the server's stalls.
 */
function probe(baseUrl) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let stop = false;
  process.on('message', () => (stop = true));
  const once = () =>
    new Promise((resolve, reject) =>
      get(`${baseUrl}/sandbox/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
  (async () => {
    process.send('ready');
    let probes = 0;
    let longest = 0;
    while (!stop) {
      const at = performance.now();
      await once();
      longest = Math.max(longest, performance.now() - at);
      probes++;
    }
    process.send({ probes, longestProbeMs: longest }, () => process.exit(0));
  })();
}

/**
 * The main thread's time on a core and waiting for one, in ms (Linux: /proc's schedstat of the
 * thread whose id is the process's); undefined elsewhere.
 */
function mainThreadSchedule() {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { onCpu: onCpu / 1e6, waiting: waiting / 1e6 };
  } catch {
    return undefined;
  }
}

/**
 * Where the event loop stalled longest, so that a rare stall names its cause in the run that saw
 * it: a 5 ms timer notes its longest gap with the reset's phase before and after it (sandbox/reset.ts
 * `resetPhases`) and how the main thread spent it (on a core: its own work, SQLite or GC; waiting
 * for a core: the machine; the rest blocked: a sleep, a lock, the disk), and the longest garbage
 * collection pause with its phase. `stop` answers a note.
 */
function traceStalls() {
  let phase = '-';
  const onPhase = (message) =>
    (phase = message.step === undefined ? message.phase : `${message.phase} of step ${message.step}`);
  subscribe('ledger:reset', onPhase);
  let last = performance.now();
  let lastSchedule = mainThreadSchedule();
  let lastPhase = phase;
  let gap = { ms: 0, from: '-', to: '-', spent: '' };
  const timer = setInterval(() => {
    const now = performance.now();
    const schedule = mainThreadSchedule();
    if (now - last > gap.ms) {
      const onCpu = schedule && lastSchedule ? schedule.onCpu - lastSchedule.onCpu : undefined;
      const waiting = schedule && lastSchedule ? schedule.waiting - lastSchedule.waiting : undefined;
      const spent =
        onCpu === undefined
          ? ''
          : `: ${onCpu.toFixed(0)} ms on a core, ${waiting.toFixed(0)} ms waiting for one, ${Math.max(0, now - last - onCpu - waiting).toFixed(0)} ms blocked`;
      gap = { ms: now - last, from: lastPhase, to: phase, spent };
    }
    last = now;
    lastSchedule = schedule;
    lastPhase = phase;
  }, 5);
  let gc = { ms: 0, kind: 0, phase: '-' };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > gc.ms) gc = { ms: entry.duration, kind: entry.detail?.kind ?? 0, phase };
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    clearInterval(timer);
    observer.disconnect();
    unsubscribe('ledger:reset', onPhase);
    const where = gap.from === gap.to ? gap.from : `${gap.from} → ${gap.to}`;
    const kinds = { 1: 'scavenge', 2: 'minor mark-sweep', 4: 'mark-compact', 8: 'weak callbacks', 16: 'incremental' };
    return (
      `longest gap ${gap.ms.toFixed(0)} ms (phase ${where}${gap.spent}); ` +
      `longest GC ${gc.ms.toFixed(0)} ms (${kinds[gc.kind] ?? gc.kind}, phase ${gc.phase})`
    );
  };
}

/** Runs `operation` while another process probes health; the longest stall of this process's event loop (the server's) and of a probe. */
export async function whileRunning(baseUrl, operation) {
  const prober = fork(import.meta.filename, ['--probe', baseUrl]);
  await new Promise((resolve) => prober.once('message', resolve));
  const stopTrace = traceStalls();
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let peakRss = rss(process.pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rss(process.pid))), 100);
  const started = performance.now();
  const result = await operation();
  const seconds = (performance.now() - started) / 1000;
  histogram.disable();
  const trace = stopTrace();
  clearInterval(sampler);
  const probed = new Promise((resolve) => prober.once('message', resolve));
  prober.send('stop');
  const { probes, longestProbeMs } = await probed;
  return { result, seconds, stallMs: histogram.max / 1e6, probes, longestProbeMs, peakRss, trace };
}

/** The lists a person or `webhooks tail` reads, each timed SAMPLES times after WARM_UP requests. */
async function timeLists(server, wallet) {
  const get = (path) =>
    fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': server.apiKey } }).then((r) => r.json());
  const last = async (path) => {
    const { total } = (await get(`${path}${path.includes('?') ? '&' : '?'}limit=20`)).data;
    return `${path}${path.includes('?') ? '&' : '?'}limit=20&page=${Math.max(1, Math.ceil(total / 20))}`;
  };
  const lists = {
    'webhook logs, page 1': '/v1/webhook-logs?limit=20',
    'webhook logs, last page': await last('/v1/webhook-logs'),
    'webhook logs, newest 100 (what `webhooks tail` polls)': '/v1/webhook-logs?order=desc&limit=100',
    'webhook logs DELIVERED, last page': await last('/v1/webhook-logs?status=DELIVERED'),
    'webhook logs ledger.debit, page 1': '/v1/webhook-logs?event_type=ledger.debit&limit=20',
    'receiver events, last page': await last('/sandbox/receiver/events'),
    "one wallet's transactions, last page": await last(`/v1/wallets/${wallet.id}/transactions`),
    "one wallet's DEBITs, newest page": `/v1/wallets/${wallet.id}/transactions?type=DEBIT&order=desc&limit=20`,
  };
  const times = {};
  for (const [name, path] of Object.entries(lists)) {
    for (let i = 0; i < WARM_UP; i++) await get(path);
    const samples = [];
    for (let i = 0; i < SAMPLES; i++) {
      const at = performance.now();
      const body = await get(path);
      samples.push(performance.now() - at);
      if (!body.success) throw new Error(`${path}: ${JSON.stringify(body)}`);
    }
    times[name] = stats(samples);
  }
  return times;
}

/** `build` in a child process of its own (see the top of this file): what it answers. */
function buildApart(dir, name, transactions) {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, ['--build', dir, name, String(transactions)]);
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`building ${name} exited with ${code}`)));
  });
}

/** Lists, audit and reset of one built sandbox, served in this process. */
async function measure(data) {
  const server = await startServer({ dbPath: data.dbPath, host: '127.0.0.1', port: 0, log: () => {} });
  try {
    const lists = await timeLists(server, data.wallets[0]);
    // Through node:http, which waits as long as the answer takes: fetch gives up on an answer after 300 s (a reset of 1,000,000 under load).
    const call = (method, path) =>
      new Promise((resolve, reject) => {
        const req = request(`${server.baseUrl}${path}`, { method, headers: { 'x-api-key': server.apiKey } }, (res) => {
          const chunks = [];
          res
            .on('data', (chunk) => chunks.push(chunk))
            .on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
        });
        req.on('error', reject).end();
      });
    const before = rss(process.pid);
    const auditRun = await whileRunning(server.baseUrl, () => call('GET', '/sandbox/audit'));
    const transactions = auditRun.result.data.checked.transactions;
    const bytesBefore = bytesOf(data.dbPath);
    const resetRun = await whileRunning(server.baseUrl, () => call('POST', '/sandbox/reset'));
    return { lists, before, auditRun, resetRun, transactions, bytesBefore, bytesAfter: bytesOf(data.dbPath) };
  } finally {
    await server.close();
  }
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-scale-'));
  try {
    process.stderr.write(`  building ${SMALL.toLocaleString('en')} transactions…\n`);
    const small = await measure(await buildApart(dir, 'small', SMALL));
    process.stderr.write(
      `  building ${TRANSACTIONS.toLocaleString('en')} transactions over ${WALLETS.toLocaleString('en')} wallets…\n`,
    );
    const data = await buildApart(dir, 'large', TRANSACTIONS);
    const large = await measure(data);
    const label = large.transactions.toLocaleString('en');
    const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    return [
      ...Object.keys(large.lists).map((name) => ({
        row: `${name}, ${label} transactions`,
        value: large.lists[name],
        floor: small.lists[name],
        unit: 'ms',
        floorLabel: `${small.transactions.toLocaleString('en')} transactions`,
        lowerIsBetter: true,
        target: '≤ 2× floor',
        met: large.lists[name].median <= 2 * small.lists[name].median,
      })),
      {
        row: `longest event-loop stall during the audit of ${label} transactions`,
        value: large.auditRun.stallMs,
        floor: 50,
        unit: 'ms',
        floorLabel: 'target',
        lowerIsBetter: true,
        target: '≤ 50 ms',
        met: large.auditRun.stallMs <= 50,
        note:
          `audit took ${large.auditRun.seconds.toFixed(1)} s, ${large.auditRun.result.data.ok ? 'clean' : 'PROBLEMS'}; ` +
          `${large.auditRun.probes} health probes answered meanwhile, the slowest in ${large.auditRun.longestProbeMs.toFixed(0)} ms; ` +
          `${large.auditRun.trace}`,
      },
      {
        row: `memory the audit of ${label} transactions adds (peak RSS less RSS before)`,
        value: large.auditRun.peakRss - large.before,
        floor: 300,
        unit: 'MB',
        floorLabel: 'target',
        lowerIsBetter: true,
        target: '≤ 300 MB',
        met: large.auditRun.peakRss - large.before <= 300,
        note: `peak ${large.auditRun.peakRss.toFixed(0)} MB`,
      },
      {
        row: `longest event-loop stall during the reset of ${label} transactions`,
        value: large.resetRun.stallMs,
        floor: 50,
        unit: 'ms',
        floorLabel: 'target',
        lowerIsBetter: true,
        target: '≤ 50 ms',
        met: large.resetRun.stallMs <= 50,
        note:
          `reset took ${large.resetRun.seconds.toFixed(1)} s; ${large.resetRun.probes} health probes answered meanwhile, ` +
          `the slowest in ${large.resetRun.longestProbeMs.toFixed(0)} ms; ` +
          `${large.resetRun.trace}`,
      },
      {
        row: 'database and WAL after the reset',
        value: large.bytesAfter / 1024 / 1024,
        floor: large.bytesBefore / 1024 / 1024,
        unit: 'MB',
        floorLabel: 'before the reset',
        lowerIsBetter: true,
        target: 'space given back',
        met: large.bytesAfter < large.bytesBefore / 10,
        note: `${mb(large.bytesBefore)} → ${mb(large.bytesAfter)}`,
      },
      {
        row: 'database bytes per transaction (events, logs, attempts and receipts included)',
        value: large.bytesBefore / large.transactions,
        floor: small.bytesBefore / small.transactions,
        unit: 'B',
        floorLabel: `${small.transactions.toLocaleString('en')} transactions`,
        lowerIsBetter: true,
        target: '—',
        note: `loaded through the engine at ${Math.round(data.perSecond).toLocaleString('en')} transfers/s with deliveries`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--probe') probe(process.argv[3]);
else if (process.argv[2] === '--build') {
  const built = await build(process.argv[3], process.argv[4], Number(process.argv[5]));
  process.send(built, () => process.exit(0));
} else if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
