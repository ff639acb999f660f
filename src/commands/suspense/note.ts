import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { type NoteOptions, sendNote } from './send-note.js';

export function noteCommand(): Command {
  return clientCommand('note')
    .argument('<suspense_id>', 'suspense item id')
    .argument('<text>', 'the note, one line of at most 500 characters')
    .option('--idempotency-key <key>', 'replay instead of adding the note twice on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger suspense note "$ITEM" "left a voicemail for the customer"',
        'ledger suspense note "$ITEM" "sender called back" --json',
      ),
    )
    .action(action(runNote));
}

/** Adds a note without changing the item (PENDING or FLAGGED). */
export function runNote(io: Io, id: string, text: string, options: NoteOptions): Promise<void> {
  return sendNote(io, 'notes', id, text, '<text>', options);
}
