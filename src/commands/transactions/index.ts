import { Command } from 'commander';
import { examples } from '../options.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';

export function transactionsCommand(): Command {
  return new Command('transactions')
    .description('Inspect ledger transactions')
    .addCommand(listCommand())
    .addCommand(getCommand())
    .addHelpText('after', examples('ledger transactions list "$WALLET"', 'ledger transactions get "$TX" --json'));
}
