// Shared pieces of the benchmarks: a sandbox in its own process, seeded wallets, timing helpers.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { receiveInbound } from '../dist/engine/inbound/inbound.service.js';
import { createWallet } from '../dist/engine/wallets/wallets.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../dist/sandbox/sandbox.js';

export const BIN = resolve(import.meta.dirname, '../bin/ledger.js');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Concurrent connections of every HTTP load (the targets are set at 16). */
export const CONNECTIONS = 16;

/** Creates funded wallets through the engine (same statements as the API). */
export async function seedWallets(sandbox, developerId, count, fund = 1_000_000_000_000) {
  const wallets = [];
  for (let i = 0; i < count; i++) {
    const reference = `bench-${i}-${Math.random().toString(36).slice(2, 8)}`;
    const wallet = await sandbox.db.transaction().execute((trx) =>
      createWallet(trx, sandbox.envFor(developerId), developerId, { customer_reference: reference, first_name: 'Bench', last_name: `W${i}`, email: `${reference}@example.com` }),
    );
    if (fund) await sandbox.db.transaction().execute((trx) => receiveInbound(trx, sandbox.envFor(developerId), developerId, { account_number: wallet.account_number, amount: fund, narration: 'salary' }));
    wallets.push(wallet);
  }
  return wallets;
}

/** `ledger sandbox start` on a file (`null`: --memory) in its own process; resolves with its URL, key and a stop(). */
export async function startSandbox(dir, dbPath, extra = []) {
  const where = dbPath === null ? ['--memory'] : ['--db', dbPath];
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', ...where, '--port', '0', ...extra], { cwd: dir, env: { ...process.env, LEDGER_HOME: dir } });
  const [baseUrl, apiKey] = await new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)\nAPI key\s+(\S+)/.exec(out);
      if (match) resolveUrl([match[1], match[2]]);
    });
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
 */
export async function servedTransfers(dir, dbPath) {
  const sandbox = await openSandbox({ dbPath });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  const [a, b] = await seedWallets(sandbox, developerId, 2);
  await sandbox.close();
  const server = await startSandbox(dir, dbPath);
  const load = (options) =>
    autocannon({
      url: `${server.baseUrl}/v1/wallets/${a.id}/transfer`,
      method: 'POST',
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({ destination_account_number: b.account_number, amount: 1 }),
      ...options,
    });
  return { server, load };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/** How many times each side of a pair runs (after one warm-up of each). */
export const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Wall time of one whole process, in ms (its output thrown away, as a script's capture would keep it). */
export function wall(command, args, options = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** A and B in turn, `runs` times each after one warm-up of each, so both meet the same machine: { a: [ms…], b: [ms…] }. */
export function interleaved(a, b, runs = RUNS) {
  a();
  b();
  const times = { a: [], b: [] };
  for (let i = 0; i < runs; i++) {
    times.a.push(a());
    times.b.push(b());
  }
  return times;
}

const spread = (values) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;

/** A table row from interleaved times: side A's median against side B's (the floor), with a target as a multiple of the floor. */
export function row(name, times, floorLabel, target) {
  const value = median(times.a);
  const floor = median(times.b);
  return {
    row: name,
    value,
    floor,
    unit: 'ms',
    floorLabel,
    lowerIsBetter: true,
    target: target ? `≤ ${target}× floor` : '—',
    ...(target ? { met: value <= target * floor } : {}),
    note: `median of ${times.a.length} interleaved; min–max ${spread(times.a)} vs ${spread(times.b)}`,
  };
}
