import { answerQuickly } from './quick.js';

/**
 * The entry point of the ES modules (bin/ledger.js runs it through launch.ts for whatever is not a
 * bundled client command). `--version` and `--help` answer before anything else loads; every other
 * invocation runs the one command it names (program.ts), loading only that command's module.
 */
if (!(await answerQuickly(process.argv.slice(2)))) {
  const { main } = await import('./program.js');
  await main(process.argv);
}
