import type { Insertable, Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import type { SuspenseItemTable } from './suspense.table.js';

export type SuspenseRow = Selectable<SuspenseItemTable>;

export async function insertSuspenseItem(trx: Trx, row: Insertable<SuspenseItemTable>): Promise<SuspenseRow> {
  return trx.insertInto('suspense_items').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSuspenseItem(trx: Trx, developerId: string, id: string): Promise<SuspenseRow | undefined> {
  return trx
    .selectFrom('suspense_items')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('id', '=', id)
    .executeTakeFirst();
}
