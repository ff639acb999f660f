import { Command, Option } from 'commander';
import { parseDuration as parseSeconds } from '../api/duration.js';
import { UsageError } from '../client/errors.js';
import { reportError } from './errors.js';
import { createIo, type GlobalFlags, type Io } from './io.js';

const EXIT_CODES = `Exit codes: 0 success · 1 the API refused (4xx/5xx) · 2 usage error · 3 sandbox not reachable.
--json prints exactly the API's data on stdout and is stable; errors go to stderr as "Error [CODE]: message".`;

/** The examples and exit codes every command's --help ends with. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n\n${EXIT_CODES}\n`;
}

/** Adds --json, --quiet, --base-url and --api-key to a command that talks to the API. */
export function clientCommand(name: string): Command {
  return new Command(name)
    .option('--json', "print exactly the API's data as JSON")
    .option('-q, --quiet', 'print only the id')
    .addOption(new Option('--base-url <url>', 'sandbox or API base URL').env('LEDGER_BASE_URL'))
    .addOption(new Option('--api-key <key>', 'API key (visible in ps: prefer LEDGER_API_KEY)').env('LEDGER_API_KEY'));
}

/**
 * Wraps a runner as a commander action: builds the Io from the flags, runs, and turns any
 * failure into stderr text and an exit code. Positional arguments come first, as commander passes them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function action(run: (io: Io, ...args: any[]) => Promise<void>) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Command;
    const options = command.opts() as Record<string, unknown>;
    const positional = received.slice(0, -2);
    const io = createIo(options as GlobalFlags);
    try {
      await run(io, ...positional, options);
    } catch (error) {
      process.exitCode = reportError(error, io.stderr);
    }
  };
}

/** Kobo from the command line: digits only (1 to 10^13 is the API's rule; it has the last word). */
export function parseAmount(text: string): number {
  const cleaned = text.replace(/[_,]/g, '');
  if (!/^\d+$/.test(cleaned)) {
    throw new UsageError(`amount "${text}" must be a whole number of kobo (500000 is ₦5,000.00)`);
  }
  const value = Number(cleaned);
  if (!Number.isSafeInteger(value)) throw new UsageError(`amount "${text}" is too large`);
  return value;
}

/** `90`, `90s`, `5m`, `2h`, `1d` → seconds (the rule the in-process API's `advance` uses too). */
export function parseDuration(text: string): number {
  try {
    return parseSeconds(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function positiveInt(name: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${name} must be a whole number of at least 1`);
    return Number(text);
  };
}
