import type { Trx } from '../db/database.js';

export async function getSetting(trx: Trx, key: string): Promise<string | undefined> {
  const row = await trx.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function putSetting(trx: Trx, key: string, value: string): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
