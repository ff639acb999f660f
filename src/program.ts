import { Command, CommanderError } from './commands/commander.js';
import { EXIT, reportError } from './commands/errors.js';
import { examples } from './commands/options.js';
import { childrenOf, entry, locate } from './commands/registry.js';
import { VERSION } from './version.js';

/**
 * Builds the commander program for one invocation from the registry: the invoked command is loaded
 * and built for real; its parents, siblings and children are stand-ins with a name and a description,
 * enough for routing, listings, "unknown command" suggestions and `--help`. `full` builds every command
 * for real (shell completion and the help tests walk the whole tree).
 */
export async function assemble(target: string, full = false): Promise<Command> {
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
  const program = await build('');
  applyEverywhere(program, (command) => {
    // A parent's options (keys --json) belong to it only before its subcommand (keys rotate --json).
    command.enablePositionalOptions();
    command.exitOverride();
    command.showHelpAfterError('(add --help for usage and examples)');
    command.configureOutput({ outputError: (text, write) => write(`Error [USAGE]: ${text.replace(/^error: /, '')}`) });
  });
  return program;
}

function root(): Command {
  return new Command('ledger')
    .description('Local sandbox and command line for the Wallet Ledger Service API (NGN, amounts in kobo)')
    .version(VERSION, '-V, --version', 'print the version (also -v)')
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
        '\nConfiguration: --base-url / LEDGER_BASE_URL and LEDGER_API_KEY, else the state `ledger sandbox start` wrote in .ledger/.\n',
    );
}

function applyEverywhere(command: Command, apply: (c: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyEverywhere(sub, apply);
}

/**
 * A reader that stops early (`ledger wallets list --json | head -1`) closes the pipe: the command
 * ends there, quietly and successfully, as git and gh do, instead of dying on EPIPE with a stack
 * trace. `sandbox start` keeps its own handling: its log reader going away must not stop the server.
 */
function quietOnClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}

export async function main(argv: string[]): Promise<void> {
  let args = argv.slice(2);
  // `ledger help wallets get` is `ledger wallets get --help`.
  if (args[0] === 'help') args = [...args.slice(1), '--help'];
  const { path } = locate(args);
  if (path !== 'sandbox start') quietOnClosedPipes();
  try {
    const program = await assemble(path, path === 'completion');
    await program.parseAsync([argv[0]!, argv[1]!, ...args]);
  } catch (error) {
    if (error instanceof CommanderError) {
      const shown = ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code);
      process.exitCode = shown ? EXIT.OK : EXIT.USAGE;
      return;
    }
    process.exitCode = reportError(error, process.stderr);
  }
}
