import { Command } from 'commander';
import { examples } from '../options.js';
import { listCommand } from './list.js';
import { resolveCommand } from './resolve.js';
import { showCommand } from './show.js';

export function suspenseCommand(): Command {
  return new Command('suspense')
    .description('The suspense queue: payments held for a person to resolve')
    .addCommand(listCommand())
    .addCommand(showCommand())
    .addCommand(resolveCommand())
    .addHelpText('after', examples('ledger suspense list --status PENDING', 'ledger suspense resolve'));
}
