import type { Insertable, Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import type { SuspenseNoteTable } from './suspense.table.js';

export type SuspenseNoteRow = Selectable<SuspenseNoteTable>;

export async function insertSuspenseNote(trx: Trx, row: Insertable<SuspenseNoteTable>): Promise<void> {
  await trx.insertInto('suspense_notes').values(row).execute();
}

/** An item's notes, oldest first. */
export async function notesOf(trx: Trx, suspenseSeq: number): Promise<SuspenseNoteRow[]> {
  return trx.selectFrom('suspense_notes').selectAll().where('suspense_seq', '=', suspenseSeq).orderBy('seq').execute();
}
