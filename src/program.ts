import { Command, CommanderError } from 'commander';
import { agentsCommand } from './commands/agents/index.js';
import { banksCommand } from './commands/banks/index.js';
import { creditCommand } from './commands/credit.js';
import { EXIT, reportError } from './commands/errors.js';
import { examples } from './commands/options.js';
import { sandboxCommand } from './commands/sandbox/index.js';
import { suspenseCommand } from './commands/suspense/index.js';
import { webhooksCommand } from './commands/webhooks/index.js';
import { transactionsCommand } from './commands/transactions/index.js';
import { transferCommand } from './commands/transfer.js';
import { walletsCommand } from './commands/wallets/index.js';
import { VERSION } from './version.js';

/** The command groups, in the order `ledger --help` lists them. */
const GROUPS: (() => Command)[] = [sandboxCommand, walletsCommand, creditCommand, transferCommand, transactionsCommand, agentsCommand, suspenseCommand, webhooksCommand, banksCommand];

function applyEverywhere(command: Command, apply: (c: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyEverywhere(sub, apply);
}

export function buildProgram(): Command {
  const program = new Command('ledger')
    .description('Local sandbox and command line for the Wallet Ledger Service API (NGN, amounts in kobo)')
    .version(VERSION, '-v, --version')
    .addHelpText(
      'after',
      examples(
        'ledger sandbox start --detach',
        'W=$(ledger wallets create --customer-reference u1 --first-name Ada --last-name Obi --email ada@example.com --quiet)',
        'ledger credit "$W" 500000 --narration "rent for May"',
        'ledger transactions list "$W"',
        'ledger sandbox audit',
      ) +
        '\nConfiguration: --base-url / LEDGER_BASE_URL and LEDGER_API_KEY, else the state `ledger sandbox start` wrote in .ledger/.\n',
    );
  for (const group of GROUPS) program.addCommand(group());
  applyEverywhere(program, (command) => {
    // A parent's options (keys --json) belong to it only before its subcommand (keys rotate --json).
    command.enablePositionalOptions();
    command.exitOverride();
    command.showHelpAfterError('(add --help for usage and examples)');
    command.configureOutput({ outputError: (text, write) => write(`Error [USAGE]: ${text.replace(/^error: /, '')}`) });
  });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      const shown = ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code);
      process.exitCode = shown ? EXIT.OK : EXIT.USAGE;
      return;
    }
    process.exitCode = reportError(error, process.stderr);
  }
}
