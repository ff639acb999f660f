// bench/dashboard: the dashboard's first page of the overview (GET / with a session) and of the
// wallets list (GET /wallets) on a `sandbox start --memory` holding 100,000 transactions (the
// 50,000 transfers with their deliveries that bench/memory and bench/snapshots start from, restored
// from a snapshot, lib.js preloadSnapshot) and 200 more wallets made over HTTP. Each page is timed
// many times, one request at a time over HTTP from this process, interleaved with its floors in the
// same run: the report API the overview shows (GET /sandbox/report with the key) and the cheapest
// answer the server gives (GET /sandbox/health). The overview shows today's report, so it is timed
// twice: with every transaction made today (the worst case), then with the developer's clock a day
// on (the same ledger, today holding none of it). The target: the overview within 300 ms.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, preloadSnapshot, startSandbox, stats } from './lib.js';

const TRANSACTIONS = Number(process.env.BENCH_DASHBOARD_TRANSACTIONS ?? 100_000);
const WALLETS = 200;
const SAMPLES = Number(process.env.BENCH_DASHBOARD_SAMPLES ?? 200);
const WARM_UP = 10;
const TARGET_MS = 300;

/** A dashboard session as a browser gets one: a one-time link made with the key, then the login's cookie. */
async function session(server) {
  const link = await server.call('POST', '/sandbox/dashboard/links');
  if (!link.data?.url) throw new Error(`no login link: ${JSON.stringify(link)}`);
  const login = await fetch(link.data.url, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  if (login.status !== 303 || !cookie.startsWith('ledger_session='))
    throw new Error(`the login link gave ${login.status} and no session cookie`);
  return cookie;
}

/**
 * Each request `SAMPLES` times after `WARM_UP`, one at a time, each round in a turned order so no
 * request always follows the same one; resolves with each one's times in ms.
 */
async function interleaved(requests) {
  const names = Object.keys(requests);
  for (let i = 0; i < WARM_UP; i++) for (const name of names) await requests[name]();
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < SAMPLES; i++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      samples[name].push(await requests[name]());
    }
  return samples;
}

/** One GET, its body read to the end, in ms; anything but 200 stops the bench (a fast error page is no measure). */
async function time(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return ms;
}

async function wallets(server) {
  for (let i = 0; i < WALLETS; i += 8)
    await Promise.all(
      Array.from({ length: Math.min(8, WALLETS - i) }, (_, k) =>
        server.call('POST', '/v1/wallets', {
          customer_reference: `bench-page-${i + k}`,
          first_name: 'Bench',
          last_name: `Page${i + k}`,
          email: `bench-page-${i + k}@example.com`,
        }),
      ),
    );
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-dashboard-'));
  try {
    const preload = await preloadSnapshot(Math.round(TRANSACTIONS / 2));
    mkdirSync(join(dir, 'snapshots'));
    copyFileSync(preload.file, join(dir, 'snapshots', 'preload.db'));
    const server = await startSandbox(dir, null);
    try {
      const restored = await server.call('POST', '/sandbox/snapshots/preload/restore');
      if (!restored.success) throw new Error(`restore failed: ${JSON.stringify(restored)}`);
      await wallets(server);
      const cookie = { cookie: await session(server) };
      const key = { 'x-api-key': server.apiKey };
      const get = (path, headers) => () => time(`${server.baseUrl}${path}`, headers);
      const first = await get('/', cookie)();
      const today = await interleaved({
        overview: get('/', cookie),
        wallets: get('/wallets', cookie),
        report: get('/sandbox/report', key),
        health: get('/sandbox/health', {}),
      });
      // The next day on the developer's clock: the same ledger, with today's report holding none of it.
      const advanced = await server.call('POST', '/sandbox/clock/advance', { seconds: 86_400 });
      if (!advanced.success) throw new Error(`clock advance failed: ${JSON.stringify(advanced)}`);
      const tomorrow = await interleaved({ overview: get('/', cookie), health: get('/sandbox/health', {}) });
      const counts = `${TRANSACTIONS.toLocaleString('en')} transactions, ${WALLETS + 2} wallets`;
      const p95 = (samples) => percentile(samples, 95);
      const page = (name, samples, floor, floorLabel, note) => ({
        row: `dashboard ${name}, ${counts}`,
        value: stats(samples),
        floor: stats(floor),
        unit: 'ms',
        floorLabel,
        target: `p95 ≤ ${TARGET_MS} ms`,
        met: p95(samples) <= TARGET_MS,
        note: `${SAMPLES} interleaved, p95 ${p95(samples).toFixed(1)} ms${note}`,
      });
      return [
        page(
          'overview (GET /), every transaction today',
          today.overview,
          today.report,
          'GET /sandbox/report, same run',
          ` (report ${p95(today.report).toFixed(1)} ms, health ${p95(today.health).toFixed(1)} ms); the first after restore ${first.toFixed(0)} ms`,
        ),
        page(
          'overview (GET /), every transaction the day before',
          tomorrow.overview,
          tomorrow.health,
          'GET /sandbox/health, same run',
          '',
        ),
        page('wallets, first page (GET /wallets)', today.wallets, today.health, 'GET /sandbox/health, same run', ''),
      ];
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
