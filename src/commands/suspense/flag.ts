import type { Command } from '../../cli/command.js';
import { textCheck } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { requireValue } from '../../cli/prompts.js';
import { type NoteOptions, sendNote } from './send-note.js';

export function flagCommand(): Command {
  return clientCommand('flag')
    .argument('<suspense_id>', 'suspense item id')
    .option(
      '--note <text>',
      'why it needs escalating, one line of at most 500 characters (asked on a terminal when left out)',
    )
    .option('--idempotency-key <key>', 'replay instead of flagging twice on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger suspense flag "$ITEM" --note "sender says the payment is not theirs"',
        'ledger suspense flag "$ITEM" --note "needs a second look" --quiet',
      ),
    )
    .action(action(runFlag));
}

/** A PENDING item becomes FLAGGED; a FLAGGED one stays so and keeps the note too. */
export async function runFlag(io: Io, id: string, options: NoteOptions & { note?: string }): Promise<void> {
  const note = await requireValue(
    io,
    options.note,
    '--note',
    'Why does it need escalating?',
    textCheck('SuspenseNoteBody', 'note'),
  );
  await sendNote(io, 'flag', id, note, '--note', options);
}
