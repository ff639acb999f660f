import type { Trx } from '../db/database.js';
import { findDeveloper } from '../developers/developers.service.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';
import { getSuspenseItem } from './suspense.service.js';
import { insertSuspenseNote, notesOf, type SuspenseNoteRow } from './suspense-notes.repository.js';
import type { SuspenseRow } from './suspense.repository.js';
import type { SuspenseNoteKind } from './suspense.table.js';

export interface SuspenseWithNotes {
  item: SuspenseRow;
  notes: SuspenseNoteRow[];
}

/** One item with its notes, oldest first; another developer's item is not found. */
export async function getSuspenseWithNotes(trx: Trx, developerId: string, id: string): Promise<SuspenseWithNotes> {
  const item = await getSuspenseItem(trx, developerId, id);
  return { item, notes: await notesOf(trx, item.seq) };
}

/**
 * Escalates an open item (decisions: Suspense): a PENDING one becomes FLAGGED, with the note saying why.
 * A FLAGGED one stays FLAGGED and keeps the note too, so two people escalating the same payment
 * both succeed and both reasons are kept; a RESOLVED one is refused as a second resolve is.
 * No webhook event: the event list (decisions: Webhooks) has none for it, and no money moves.
 * @example await flagSuspense(trx, env, developerId, itemId, 'sender called: says it is not theirs')
 */
export async function flagSuspense(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  id: string,
  note: string,
): Promise<SuspenseWithNotes> {
  return addNote(trx, env, developerId, id, note, 'FLAG');
}

/**
 * Adds a note to an open item (PENDING or FLAGGED) without changing it; a RESOLVED item is refused.
 * @example await noteSuspense(trx, env, developerId, itemId, 'left a voicemail for the customer')
 */
export async function noteSuspense(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  id: string,
  note: string,
): Promise<SuspenseWithNotes> {
  return addNote(trx, env, developerId, id, note, 'NOTE');
}

async function addNote(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  id: string,
  note: string,
  kind: SuspenseNoteKind,
): Promise<SuspenseWithNotes> {
  const item = await getSuspenseItem(trx, developerId, id);
  if (item.status === 'RESOLVED') {
    throw new LedgerError(
      'SUSPENSE_ALREADY_RESOLVED',
      `suspense item was already resolved (${item.resolution_action ?? 'RESOLVED'}) at ${item.resolved_at}: it takes no more notes`,
    );
  }
  if (kind === 'FLAG' && item.status === 'PENDING') {
    await trx.updateTable('suspense_items').set({ status: 'FLAGGED' }).where('seq', '=', item.seq).execute();
    item.status = 'FLAGGED';
  }
  const author = await findDeveloper(trx, developerId);
  await insertSuspenseNote(trx, {
    suspense_seq: item.seq,
    kind,
    note,
    author_id: developerId,
    author_name: author?.business_name ?? '',
    created_at: env.clock.now().toISOString(),
  });
  return { item, notes: await notesOf(trx, item.seq) };
}
