import type { Trx } from '../db/database.js';

/** The developer's cached model answer, or undefined. */
export async function findCachedAnswer(db: Trx, developerId: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('analysis_cache')
    .select('answer')
    .where('developer_id', '=', developerId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.answer;
}

/** Keeps the first answer for a key: a second one (a race) changes nothing. */
export async function saveCachedAnswer(
  trx: Trx,
  row: { developer_id: string; key: string; model: string; answer: string; created_at: string },
): Promise<void> {
  await trx
    .insertInto('analysis_cache')
    .values(row)
    .onConflict((c) => c.columns(['developer_id', 'key']).doNothing())
    .execute();
}
