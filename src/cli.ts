import { writeSync } from 'node:fs';

/**
 * The entry point. `--version` and `--help` answer before anything else loads; every other invocation
 * runs the one command it names (program.ts), loading only that command's module.
 */
const args = process.argv.slice(2);
if (args.length === 1 && ['--version', '-v', '-V'].includes(args[0]!)) {
  // Imported here, not at the top: every other invocation but help would load it for nothing.
  const { VERSION } = await import('./version.js');
  try {
    writeSync(1, `${VERSION}\n`);
  } catch (error) {
    // A reader that stopped early (`| true`): nothing more to say.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h') && (await import('./built-help.js')).printBuiltHelp()) {
  // printed
} else {
  const { main } = await import('./program.js');
  await main(process.argv);
}
