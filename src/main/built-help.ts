import { readFileSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * `ledger --help` as the build printed it (dist/help.txt, 80 columns; scripts/after-build.js), for a
 * pipe or a terminal of that width: the top-level help then loads neither commander nor any command.
 * False when there is none (the source tree) or the terminal is another width: commander prints it.
 */
export function printBuiltHelp(): boolean {
  if (isatty(1) && process.stdout.columns !== 80) return false;
  let text: string;
  try {
    // dist/help.txt: this code runs from the launcher's bundle in dist/ (a .cjs file), or as dist/main/built-help.js.
    text = readFileSync(
      new URL(import.meta.url.endsWith('.cjs') ? './help.txt' : '../help.txt', import.meta.url),
      'utf8',
    );
  } catch {
    return false;
  }
  try {
    writeSync(1, text);
  } catch (error) {
    // A reader that stopped early (`| head -1`): nothing more to say.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
  return true;
}
