// bench/scenarios: a 100-step scenario file through `ledger scenario run` (one process: a fresh
// in-process sandbox, every step through the command code and app.inject), against the same HTTP
// requests made in-process by a bare script (one process: the same sandbox, app.inject, nothing
// else), and against the same 100 steps as separate `ledger` invocations from a shell script (a
// sandbox already running). Each pair runs interleaved after one warm-up of each side; medians.
// Targets: the scenario within 2× the bare requests, and at least 20× faster than the
// separate invocations.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN, interleave, row, startSandbox, wall } from './lib.js';

const RUNS = Number(process.env.BENCH_SCENARIO_RUNS ?? 3);
const DIST = resolve(import.meta.dirname, '../dist');

/** The 98 steps after the two wallets: credit, transfer, get, list, in turn. */
const CYCLE = [
  ['credit ${ADA} 1000', 'credit "$ADA" 1000'],
  ['transfer ${ADA} ${BOLA} 100', 'transfer "$ADA" "$BOLA" 100'],
  ['wallets get ${BOLA}', 'wallets get "$BOLA"'],
  ['transactions list ${ADA} --limit 5', 'transactions list "$ADA" --limit 5'],
];
const STEPS = Array.from({ length: 98 }, (_, i) => CYCLE[i % CYCLE.length]);

const SCENARIO = `name: 100 steps
steps:
  - run: wallets create --customer-reference ada --first-name Ada --last-name Obi --email ada@example.com
    save: { ADA: data.id, ADA_ACCOUNT: data.account_number }
  - run: wallets create --customer-reference bola --first-name Bola --last-name Ade --email bola@example.com
    save: { BOLA: data.id, BOLA_ACCOUNT: data.account_number }
${STEPS.map(([step]) => `  - ${step}`).join('\n')}
`;

const shell = (steps) => `set -e
ADA=$(ledger wallets create --customer-reference "ada-$RUN" --first-name Ada --last-name Obi --email ada@example.com --quiet)
BOLA=$(ledger wallets create --customer-reference "bola-$RUN" --first-name Bola --last-name Ade --email bola@example.com --quiet)
${steps.map(([, line]) => `ledger ${line} > /dev/null`).join('\n')}
`;
const SHELL = shell(STEPS);
/**
 * The shell side's warm-up: the two wallets and one cycle, which load every file the 100 steps
 * load (a cold file cache is what a warm-up is for). The whole script again took 19 s of the run.
 */
const WARM_UP = shell(CYCLE);

/**
 * The requests the scenario's steps make (each command's own, in order), then the audit, on the same
 * in-process sandbox (`singleCaller`, as `scenario run` opens it). It imports the server from its
 * unbundled files: the bundle (scripts/bundle.js) is what `scenario run` and `sandbox start` load.
 */
const BARE = `
import { startServer } from ${JSON.stringify(join(DIST, 'sandbox/server.js'))};
const server = await startServer({
  dbPath: ':memory:', host: '127.0.0.1', port: 0, seed: '1', clockStart: Date.parse('2026-01-01T00:00:00Z'), log: () => {}, singleCaller: true,
});
const call = async (method, url, body) => {
  const response = await server.app.inject({
    method,
    url,
    headers: { 'x-api-key': server.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  const parsed = JSON.parse(response.body);
  if (!parsed.success) throw new Error(method + ' ' + url + ': ' + response.body);
  return parsed.data;
};
const ada = await call('POST', '/v1/wallets', { customer_reference: 'ada', first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com' });
const bola = await call('POST', '/v1/wallets', { customer_reference: 'bola', first_name: 'Bola', last_name: 'Ade', email: 'bola@example.com' });
const cycle = [
  async () => {
    await call('GET', '/v1/wallets/' + ada.id);
    await call('POST', '/sandbox/inbound-transfers', { account_number: ada.account_number, amount: 1000 });
  },
  async () => {
    await call('GET', '/v1/wallets/' + bola.id);
    await call('POST', '/v1/wallets/' + ada.id + '/transfer', { destination_account_number: bola.account_number, amount: 100 });
  },
  () => call('GET', '/v1/wallets/' + bola.id),
  () => call('GET', '/v1/wallets/' + ada.id + '/transactions?page=1&limit=5'),
];
for (let i = 0; i < 98; i++) await cycle[i % cycle.length]();
if (!(await call('GET', '/sandbox/audit')).ok) throw new Error('audit');
await server.close();
`;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-scenario-'));
  try {
    writeFileSync(join(dir, 'hundred.yaml'), SCENARIO);
    writeFileSync(join(dir, 'bare.mjs'), BARE);
    writeFileSync(join(dir, 'hundred.sh'), SHELL);
    writeFileSync(join(dir, 'warm-up.sh'), WARM_UP);
    const env = { ...process.env, NO_COLOR: '1' };
    const scenario = () =>
      wall(process.execPath, [BIN, 'scenario', 'run', join(dir, 'hundred.yaml'), '--reporter', 'tap'], {
        cwd: dir,
        env,
      });
    const bare = () => wall(process.execPath, [join(dir, 'bare.mjs')], { cwd: dir, env });
    const rows = [
      row(
        '100-step scenario file, `ledger scenario run` (whole process)',
        await interleave(scenario, bare, RUNS, { warmUp: 1 }),
        'same requests in-process, bare script',
        2,
      ),
    ];

    const server = await startSandbox(dir, null);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'ledger'));
    let runId = 0;
    // interleave's warm-up run is round -1.
    const separate = (round) =>
      wall('bash', [join(dir, round < 0 ? 'warm-up.sh' : 'hundred.sh')], {
        cwd: dir,
        env: {
          ...env,
          PATH: `${bin}:${process.env.PATH}`,
          LEDGER_BASE_URL: server.baseUrl,
          LEDGER_API_KEY: server.apiKey,
          RUN: String((runId += 1)),
        },
      });
    const times = await interleave(separate, scenario, RUNS, { warmUp: 1 });
    await server.stop();
    const apart = times.a.median;
    const together = times.b.median;
    rows.push({
      row: 'the same 100 steps as separate `ledger` invocations (shell script)',
      value: apart,
      floor: together,
      unit: 'ms',
      floorLabel: '`ledger scenario run`, same steps',
      lowerIsBetter: true,
      target: '≥ 20× floor',
      met: apart >= 20 * together,
      note: `median of ${times.a.samples.length} interleaved; the scenario run is ${(apart / together).toFixed(1)}× faster`,
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
