// `npm run bench`: every benchmark, one after another, then one table. Figures only: nothing here
// asserts a time. `npm run bench -- transfers` runs the benchmarks whose file name contains "transfers".
const benches = ['./startup.js', './cli.js', './scenarios.js', './narrations.js', './transfers.js', './credits.js', './webhooks.js', './scale.js', './snapshots.js', './memory.js'];
const only = process.argv[2];
const rows = [];
for (const path of benches) {
  if (only && !path.includes(only)) continue;
  const { run } = await import(path);
  process.stderr.write(`running ${path.slice(2)}…\n`);
  rows.push(...(await run()));
}

const fmt = (value, unit) => `${value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(value >= 10 ? 1 : 2)} ${unit}`;
const cells = rows.map((r) => {
  const ratio = r.value / r.floor;
  return [r.row, fmt(r.value, r.unit), `${fmt(r.floor, r.unit)} (${r.floorLabel ?? 'floor'})`, `${ratio.toFixed(2)}×`, r.target ?? '—', r.met === undefined ? '' : r.met ? 'met' : 'MISSED', r.note ?? ''];
});
const head = ['measure', 'value', 'floor (same run)', 'ratio', 'target', '', 'notes'];
const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const line = (c) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores, BENCH_SECONDS=${process.env.BENCH_SECONDS ?? 10}`);
console.log(line(head));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const c of cells) console.log(line(c));
