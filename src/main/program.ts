import type * as Commander from 'commander';
import { Command } from '../cli/command.js';
import { UsageError } from '../client/errors.js';
import { singleQuoted } from '../client/shell-quote.js';
import { EXIT, reportError } from '../cli/errors.js';
import type { CommandLines, Invocation } from '../cli/io.js';
import { examples } from '../cli/options.js';
import { hoistGlobals } from './global-flags.js';
import type { Stream } from '../cli/output/render.js';
import { childrenOf, entry, locate } from '../commands/registry.js';
import { keepRunningWhenOutputFails, stderr, stdout } from '../cli/streams.js';

/**
 * Runs one invocation. The registry names the command; only its module is loaded. An ordinary
 * invocation of a command without subcommands is parsed by the command itself (command.ts) and
 * never loads commander; help, listings, completion and every invocation it is unsure of go to
 * commander, built from the same declarations, which parses and reports as it always has.
 */
export async function main(argv: string[]): Promise<void> {
  let args = hoistGlobals(argv.slice(2));
  // `ledger help wallets get` is `ledger wallets get --help`.
  if (args[0] === 'help') args = [...args.slice(1), '--help'];
  const { path, used } = locate(args);
  // A closed pipe ends a command quietly (streams.ts); the server's log (a pipe gone, a full disk) never stops it.
  if (path === 'sandbox start') keepRunningWhenOutputFails();
  try {
    if (path === '') refuseOptionsBeforeCommand(args);
    const alone = await leaf(path);
    if (alone) alone.commandLines = commandLines;
    if (alone) await runLeaf(alone, args.slice(used), { stdout, stderr });
    else await (await assemble(path, path === 'completion')).parseAsync([argv[0]!, argv[1]!, ...args]);
  } catch (error) {
    process.exitCode = exitCodeOf(error, stderr);
  }
}

const ROOT_OPTIONS = ['-h', '--help', '-V', '-v', '--version'];

/**
 * `ledger --json wallets list`: a command's options before its name. Commander would say only
 * "unknown option '--json'"; this says where they go, with the line as it should read (exit 2).
 */
function refuseOptionsBeforeCommand(args: string[]): void {
  if (!args[0]?.startsWith('-') || ROOT_OPTIONS.includes(args[0])) return;
  const at = args.findIndex((_, i) => i > 0 && locate(args.slice(i)).used > 0);
  if (at < 0) return;
  // The command and what followed it, then the options that came first.
  const line = [...args.slice(at), ...args.slice(0, at)].map(shellWord).join(' ');
  throw new UsageError(`options go after the command's name: ledger ${line}`);
}

/** A word as it would be typed in a shell: quoted when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : singleQuoted(word);
}

/** Where a command writes. */
export interface Output {
  stdout: Stream;
  stderr: Stream;
}

/**
 * Runs one invocation of a command that stands alone: its own parser first, and commander, built
 * from the same declarations, for anything that parser is not sure of. `main` runs every such
 * command through here, and so does a scenario's command-line step (with its own output and env).
 * Commander's refusals are thrown: `exitCodeOf` turns them into exit codes.
 */
export async function runLeaf(
  command: Command,
  words: string[],
  output: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (await command.parseFast(words, env)) return;
  const built = command.toCommander(await loadCommander());
  configure(built, output);
  await built.parseAsync(words, { from: 'user' });
}

/**
 * Other command lines, named by the registry and run in this process (a scenario's steps): the
 * command standing alone, with `added` after its own flags, its output and requests where
 * `invocation.sources` says. Handed to commands through their Io (see `CommandLines`).
 * @example const exit = await commandLines.run(['wallets', 'get', id], ['--json'], { sources: { stdout, stderr, env: {}, cwd }, exitCode: 0 });
 */
export const commandLines: CommandLines = {
  name(words) {
    const { path, used } = locate(words);
    const known = entry(path);
    return {
      path,
      used,
      known: Boolean(known),
      runs: Boolean(known?.load),
      children: childrenOf(path).map((c) => c.path),
    };
  },
  run: (words, added, invocation) => runCommandLine(words, added, invocation),
};

async function runCommandLine(words: string[], added: string[], invocation: Invocation): Promise<number> {
  const { path, used } = locate(words);
  const command = (await standalone(path))!;
  command.invocation = invocation;
  command.commandLines = commandLines;
  const own = words.slice(used);
  const end = own.includes('--') ? own.indexOf('--') : own.length;
  const output = { stdout: invocation.sources.stdout ?? stdout, stderr: invocation.sources.stderr ?? stderr };
  try {
    await runLeaf(command, [...own.slice(0, end), ...added, ...own.slice(end)], output, invocation.sources.env ?? {});
    return invocation.exitCode;
  } catch (error) {
    return exitCodeOf(error, output.stderr);
  }
}

/**
 * The exit code of a failure: commander's own (help asked for and the version are 0, a usage error 2),
 * else reportError's. `ledger` or `ledger wallets` alone prints the help on stderr (commander's
 * `commander.help`): a command is missing, a usage error like any missing argument, so that a script's
 * `ledger $EMPTY` fails.
 */
export function exitCodeOf(error: unknown, errors: Stream): number {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('commander.')) {
    return ['commander.helpDisplayed', 'commander.version'].includes(code) ? EXIT.OK : EXIT.USAGE;
  }
  return reportError(error, errors);
}

async function loadCommander(): Promise<typeof Commander> {
  return (await import('../cli/commander.js')).commander;
}

/**
 * A command with no subcommands stands alone, named by its whole path (`ledger wallets get`, as its
 * usage line says): no program, groups or stand-ins are built around it.
 */
async function leaf(path: string): Promise<Command | undefined> {
  if (childrenOf(path).length > 0 || path === 'completion') return undefined;
  return standalone(path);
}

/**
 * The command at `path` built on its own, without its subcommands, or undefined for a pure group.
 * A scenario step runs `sandbox keys` this way too: the words after it are its own.
 */
export async function standalone(path: string): Promise<Command | undefined> {
  const known = entry(path);
  if (!known?.load) return undefined;
  return (await known.load())().name(`ledger ${path}`).description(known.description);
}

/**
 * The commander program for one invocation: the invoked command is loaded and built for real; its
 * parents and their children are stand-ins with a name and a description, enough for routing,
 * listings, "unknown command" suggestions and `--help`. `full` builds every command for real (shell
 * completion and the help tests walk the whole tree).
 */
export async function assemble(target: string, full = false): Promise<Commander.Command> {
  const build = async (path: string): Promise<Command> => {
    const known = entry(path);
    const onPath = path === '' || target === path || target.startsWith(`${path} `);
    let command: Command;
    if (path === '') command = root();
    else if (known?.load && (full || path === target)) command = (await known.load())();
    else command = new Command(path.split(' ').at(-1));
    if (known) command.description(known.description);
    if (known?.examples) command.addHelpText('after', examples(...known.examples));
    // Off the path a group needs no children: nothing routes through it and its listing is not shown.
    if (full || onPath) for (const child of childrenOf(path)) command.addCommand(await build(child.path));
    return command;
  };
  const program = (await build(''))
    .toCommander(await loadCommander())
    .version((await import('../version.js')).VERSION, '-V, --version', 'print the version (also -v)');
  applyEverywhere(program, (command) => configure(command, { stdout, stderr }));
  return program;
}

function root(): Command {
  return new Command('ledger')
    .description('Local sandbox and command line for the Wallet Ledger Service API (NGN, amounts in kobo)')
    .addHelpText(
      'after',
      examples(
        'ledger sandbox start --detach',
        'W=$(ledger wallets create --customer-reference u1 --first-name Ada --last-name Obi --email ada@example.com --quiet)',
        'ledger credit "$W" 500000 --narration "rent for May"',
        'ledger transactions list "$W"',
        'ledger sandbox audit',
        'ledger help transfer',
      ) +
        '\nWhere requests go: --base-url and --api-key, else --profile (LEDGER_PROFILE), ' +
        'else\nLEDGER_BASE_URL and LEDGER_API_KEY, ' +
        'else the sandbox state `ledger sandbox start`\nwrote in .ledger/, ' +
        'else the default profile (`ledger profiles`, ' +
        '`ledger whoami`).\nA live key or profile needs --live on every command.\n',
    );
}

/** How every command reports: errors as `Error [USAGE]`, help through the given stdout and stderr. */
function configure(command: Commander.Command, { stdout, stderr }: Output): void {
  // A parent's options (keys --json) belong to it only before its subcommand (keys rotate --json).
  command.enablePositionalOptions();
  command.exitOverride();
  command.showHelpAfterError('(add --help for usage and examples)');
  command.configureOutput({
    writeOut: (text) => stdout.write(text),
    writeErr: (text) => stderr.write(text),
    outputError: (text, write) => write(`Error [USAGE]: ${text.replace(/^error: /, '')}`),
    getOutHelpWidth: () => stdout.columns ?? 80,
    getErrHelpWidth: () => stderr.columns ?? 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
}

function applyEverywhere(command: Commander.Command, apply: (c: Commander.Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyEverywhere(sub, apply);
}
