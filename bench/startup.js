// bench/startup: `ledger --version` against `node -e ''`, side by side, median of 10 runs each.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const BIN = resolve(import.meta.dirname, '../bin/ledger.js');

function time(args) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run() {
  const cases = { "node -e ''": ['-e', ''], 'ledger --version': [BIN, '--version'], 'ledger --help': [BIN, '--help'] };
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  time(['-e', '']); // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(cases)) samples[name].push(time(args));
  const floor = median(samples["node -e ''"]);
  const version = median(samples['ledger --version']);
  const help = median(samples['ledger --help']);
  return [
    { row: '`ledger --version` wall time', value: version, floor, unit: 'ms', floorLabel: "node -e ''", lowerIsBetter: true, target: '≤ 2× floor', met: version <= 2 * floor },
    { row: '`ledger --help` wall time', value: help, floor, unit: 'ms', floorLabel: "node -e ''", lowerIsBetter: true, target: '—', met: true },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
