// `npm run bench`: every benchmark, one after another, then one table. Figures only: nothing here
// asserts a time. `npm run bench -- transfers` runs the benchmarks whose file name contains
// "transfers"; `npm run bench -- scale` runs the 1,000,000-transaction scale run, which the default
// run leaves out (it takes longer than all the others together).
import { loadavg, cpus } from 'node:os';

const benches = [
  './cli.js',
  './scenarios.js',
  './narrations.js',
  './transfers.js',
  './credits.js',
  './webhooks.js',
  './snapshots.js',
  './memory.js',
  './report.js',
  './dashboard.js',
  './postgres.js',
];
const only = process.argv[2];
const chosen = only ? [...benches, './scale.js'].filter((path) => path.includes(only)) : benches;
const started = new Date();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const rows = [];
process.stderr.write(`load average at the start: ${load()}\n`);
/** Minutes each benchmark took, printed under the table: where the run's time goes. */
const took = [];
for (const path of chosen) {
  const { run } = await import(path);
  process.stderr.write(`running ${path.slice(2)}… (load average ${load()})\n`);
  const began = Date.now();
  rows.push(...(await run()));
  took.push(`${path.slice(2, -3)} ${((Date.now() - began) / 60_000).toFixed(1)}`);
}

/** A figure, or a measure over runs: its median, and min–max beside it. */
const fmt = (value, unit) =>
  `${value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(value >= 10 ? 1 : 2)} ${unit}`;
const median = (x) => (typeof x === 'number' ? x : x.median);
const shown = (x, unit) =>
  typeof x === 'number' ? fmt(x, unit) : `${fmt(x.median, unit)} (${fmt(x.min, '').trim()}–${fmt(x.max, unit)})`;
const cells = rows.map((r) => {
  const ratio = median(r.value) / median(r.floor);
  return [
    r.row,
    shown(r.value, r.unit),
    `${shown(r.floor, r.floorUnit ?? r.unit)} (${r.floorLabel ?? 'floor'})`,
    Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—',
    r.target ?? '—',
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
    r.note ?? '',
  ];
});
const head = ['measure', 'value (median, min–max)', 'floor (same run)', 'ratio', 'target', '', 'notes'];
const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const line = (c) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(1);
console.log(
  `${started.toISOString().slice(0, 10)}, node ${process.version}, ${cpus().length} cores, load average at the end ${load()}, ` +
    `${minutes} min, BENCH_SECONDS=${process.env.BENCH_SECONDS ?? 10}`,
);
console.log(line(head));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const c of cells) console.log(line(c));
console.log(`minutes per benchmark: ${took.join(', ')}`);
