import { VERSION } from './version.js';

/**
 * The entry point. `--version` answers before anything else loads; every other invocation builds
 * the commander program for the one command it names (program.ts), loading only that command's module.
 */
const args = process.argv.slice(2);
if (args.length === 1 && ['--version', '-v', '-V'].includes(args[0]!)) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('./program.js');
  await main(process.argv);
}
