import type { Command } from '../../cli/command.js';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { suspenseItemView } from '../../cli/output/views.js';
import { readOne } from '../../cli/remote.js';

export function showCommand(): Command {
  return clientCommand('show')
    .argument('<suspense_id>', 'suspense item id')
    .addHelpText('after', examples('ledger suspense show "$ITEM"', 'ledger suspense show "$ITEM" --json'))
    .action(action(runShow));
}

export async function runShow(io: Io, id: string): Promise<void> {
  // A service without the sandbox's route shows the item as its list does: without notes.
  const item = await readOne<SuspenseItem>(io, '/sandbox/suspense/{}', '/v1/suspense', id, 'suspense item');
  await io.show(item, suspenseItemView);
  // What a person at the queue does next: the command, and that it asks rather than needing every flag.
  if (item.status === 'PENDING' || item.status === 'FLAGGED') {
    io.note(
      `Resolve it with \`ledger suspense resolve ${item.id}\`: on a terminal it asks for the action and the wallet, and asks again before money moves.`,
    );
  }
}
