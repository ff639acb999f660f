// `npm run bench`: every benchmark, one after another. Figures only: nothing here asserts a time.
const benches = ['./startup.js', './narrations.js', './transfers.js'];
const only = process.argv[2];
for (const path of benches) {
  if (only && !path.includes(only)) continue;
  const { run } = await import(path);
  await run();
  console.log('');
}
