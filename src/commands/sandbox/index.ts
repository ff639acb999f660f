import { Command } from 'commander';
import { examples } from '../options.js';
import { analyseCommand } from './analyse.js';
import { auditCommand, clockCommand, developersCommand, keysCommand, resetCommand } from './controls.js';
import { envCommand, statusCommand, stopCommand } from './lifecycle.js';
import { magicCommand, payoutsCommand, receiverCommand } from './provider.js';
import { snapshotCommand } from './snapshot.js';
import { startCommand } from './start.js';

export function sandboxCommand(): Command {
  return new Command('sandbox')
    .description('Run and control the local sandbox')
    .addCommand(startCommand())
    .addCommand(stopCommand())
    .addCommand(statusCommand())
    .addCommand(envCommand())
    .addCommand(resetCommand())
    .addCommand(auditCommand())
    .addCommand(keysCommand())
    .addCommand(clockCommand())
    .addCommand(magicCommand())
    .addCommand(payoutsCommand())
    .addCommand(receiverCommand())
    .addCommand(developersCommand())
    .addCommand(analyseCommand())
    .addCommand(snapshotCommand())
    .addHelpText('after', examples('ledger sandbox start --detach', 'ledger sandbox status', 'ledger sandbox analyse "sch fees"', 'ledger sandbox audit', 'ledger sandbox stop'));
}
