import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { magicView } from '../../cli/output/views.js';

export function magicCommand(): Command {
  return sandboxCommand('magic')
    .addHelpText(
      'after',
      examples(
        'ledger sandbox magic',
        'ledger transfer "$W" 1111111111 50000 --bank 058   # fails after the settlement delay, and is reversed',
      ),
    )
    .action(action(async (io: Io) => io.show(await io.client().sandbox('GET', '/sandbox/magic'), magicView)));
}
