import type { SuspenseItemWithNotes } from '../../api/schemas/suspense.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { suspenseNotedView } from '../../cli/output/views.js';

export interface NoteOptions {
  idempotencyKey?: string;
}

/**
 * Sends a flag or a note (`POST /v1/suspense/:id/flag|notes`, this service's extensions). A server
 * without the route (the live service, another implementation of the interface) is refused by name
 * (NOT_A_SANDBOX, exit 1) instead of reading as an unknown item.
 */
export async function sendNote(
  io: Io,
  verb: 'flag' | 'notes',
  id: string,
  text: string,
  flag: string,
  options: NoteOptions,
): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  const body = check('SuspenseNoteBody', { note: text }, { note: flag });
  const item = await io
    .client()
    .sandbox<SuspenseItemWithNotes>('POST', `/v1/suspense/${encodeURIComponent(id)}/${verb}`, {
      body,
      idempotencyKey: options.idempotencyKey,
    });
  await io.show(item, suspenseNotedView);
}
