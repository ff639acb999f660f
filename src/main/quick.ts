import { writeSync } from 'node:fs';

/**
 * `ledger --version` and `ledger --help`, answered before anything else loads (cli.ts and launch.ts):
 * the version from package.json, the help from dist/help.txt (built-help.ts). False for any other
 * invocation, and for help at a terminal of another width than the built text's (commander prints it).
 */
export async function answerQuickly(args: string[]): Promise<boolean> {
  if (args.length === 1 && ['--version', '-v', '-V'].includes(args[0]!)) {
    // Imported here, not at the top: every other invocation but help would load it for nothing.
    const { VERSION } = await import('../version.js');
    try {
      writeSync(1, `${VERSION}\n`);
    } catch (error) {
      // A reader that stopped early (`| true`): nothing more to say.
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    }
    return true;
  }
  return (
    args.length === 1 &&
    (args[0] === '--help' || args[0] === '-h') &&
    (await import('./built-help.js')).printBuiltHelp()
  );
}
