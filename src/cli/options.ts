import { Command, Option } from './command.js';
import { notFoundArgument } from './account-number.js';
import { resolveIdValues } from './resolve-id.js';
import { parseDuration as parseSeconds } from '../api/duration.js';
import { UsageError } from '../client/errors.js';
import { reportError } from './errors.js';
import { createIo, type GlobalFlags, type Io } from './io.js';

// Lines of at most 80 columns: help text after the options is printed as written.
const EXIT_CODES = `Exit codes: 0 success · 1 the API refused (4xx/5xx) · 2 usage error ·
3 sandbox not reachable · 130 cancelled at a prompt.
--json prints exactly the API's data on stdout and is stable; errors go to
stderr as "Error [CODE]: message".`;

/** The examples and exit codes every command's --help ends with. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n\n${EXIT_CODES}\n`;
}

/** Adds --json, --quiet, --wide, --base-url and --api-key to a command that talks to the API. */
export function clientCommand(name: string): Command {
  return new Command(name)
    .option('--json', "print exactly the API's data as JSON")
    .option('-q, --quiet', 'print only the id (or, without one, the value that matters)')
    .option('-w, --wide', 'full ids and text in tables, whatever the terminal width')
    .addOption(new Option('--base-url <url>', 'sandbox or API base URL').env('LEDGER_BASE_URL'))
    .addOption(new Option('--api-key <key>', 'API key (visible in ps: prefer LEDGER_API_KEY)').env('LEDGER_API_KEY'))
    .addOption(
      new Option('--profile <name>', 'use a profile of ~/.config/ledger/config.toml (`ledger profiles list`)').env(
        'LEDGER_PROFILE',
      ),
    )
    .option('--live', 'required with a live key or profile: this command is meant for the live service')
    .option('--insecure', 'allow an http:// base URL beyond loopback (a test server on a trusted network only)')
    .option('-y, --yes', 'do not ask for confirmation; with --live, stands for the typed one in a script');
}

/**
 * A client command of the sandbox alone (its /sandbox controls, or the simulated provider's inbound
 * transfer): refused with SANDBOX_ONLY before any request against a live service.
 */
export function sandboxCommand(name: string): Command {
  const command = clientCommand(name);
  command.onlySandbox = true;
  return command;
}

/**
 * A flag whose value is one of a schema's enum values: matched without regard to case and handed
 * on in the schema's own spelling (`--action dismiss` → `DISMISS`). The values also feed `--help`
 * and shell completion; anything else is left for the runner's check to refuse with the schema's message.
 */
export function enumOption(flags: string, description: string, values: string[]): Option {
  return new Option(flags, description)
    .choices(values)
    .argParser((text: string) => values.find((v) => v.toLowerCase() === text.toLowerCase()) ?? text);
}

/**
 * Wraps a runner as a commander action: builds the Io from the flags, runs, and turns any
 * failure into stderr text and an exit code. Positional arguments come first, as commander passes them.
 * A command given an `invocation` (a scenario step) writes where it says and records its exit code there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function action(run: (io: Io, ...args: any[]) => Promise<void>) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Pick<
      Command,
      'opts' | 'argumentNames' | 'options' | 'invocation' | 'commandLines' | 'onlySandbox'
    > & { parent?: { name(): string; parent?: unknown } | null; name(): string };
    const options = command.opts() as Record<string, unknown>;
    const positional = received.slice(0, -2);
    const { invocation, commandLines } = command;
    const io = createIo(options as GlobalFlags, { ...invocation?.sources, commandLines });
    try {
      await io.prepare();
      if (command.onlySandbox) await io.sandboxOnly(fullName(command));
      // Every command that takes an id takes the start of one too (resolve-id.ts).
      await resolveIdValues(io, command, positional, options);
      await run(io, ...positional, options);
    } catch (error) {
      const code = reportError(notFoundArgument(error, command.argumentNames(), positional), io.stderr);
      if (invocation) invocation.exitCode = code;
      else process.exitCode = code;
    }
  };
}

/** `ledger sandbox reset`: the command's name with its parents' (commander's commands name only their own word). */
function fullName(command: { name(): string; parent?: unknown }): string {
  const words: string[] = [];
  for (let at: { name(): string; parent?: unknown } | null | undefined = command; at; at = at.parent as typeof at)
    words.unshift(at.name());
  const name = words.join(' ');
  return name.startsWith('ledger ') ? name : `ledger ${name}`;
}

/** `90`, `90s`, `5m`, `2h`, `1d` → seconds (the rule the in-process API's `advance` uses too). */
export function parseDuration(text: string): number {
  try {
    return parseSeconds(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
