import { Command } from 'commander';
import { examples } from '../options.js';
import { closeCommand } from './close.js';
import { createCommand } from './create.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { unlockCommand } from './unlock.js';

export function walletsCommand(): Command {
  return new Command('wallets')
    .description('Create, inspect, close and unlock wallets')
    .addCommand(createCommand())
    .addCommand(getCommand())
    .addCommand(listCommand())
    .addCommand(closeCommand())
    .addCommand(unlockCommand())
    .addHelpText('after', examples('ledger wallets create --customer-reference u1 --first-name Ada --last-name Obi --email ada@example.com', 'ledger wallets list'));
}
