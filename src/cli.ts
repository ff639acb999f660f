import { VERSION } from './version.js';

/**
 * The entry point. `--version` answers before anything else loads; every other invocation builds
 * the commander program from the plain list in program.ts, whose runners load their heavy parts lazily.
 */
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('./program.js');
  await main(process.argv);
}
