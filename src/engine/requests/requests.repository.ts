import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db, Trx } from '../db/database.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { RequestLogTable } from './requests.table.js';

export type RequestLogRow = Selectable<RequestLogTable>;

/** What the request log is filtered by: a status (`422`) or a class (`4xx`), a path prefix, an instant, a key. */
export interface RequestFilters {
  status?: string | undefined;
  path?: string | undefined;
  /** Epoch milliseconds on the developer's clock. */
  since?: number | undefined;
  idempotency_key?: string | undefined;
}

/**
 * Takes the next `count` request numbers of a developer, for this server alone, and answers the last
 * of them: servers sharing one database each take their own block (decisions: Request log).
 * @example const last = await reserveRequestNumbers(trx, developerId, 100); // numbers last-99 … last
 */
export async function reserveRequestNumbers(trx: Trx, developerId: string, count: number): Promise<number> {
  const row = await trx
    .insertInto('request_counters')
    .values({ developer_id: developerId, last: count })
    .onConflict((oc) => oc.column('developer_id').doUpdateSet({ last: sql`request_counters.last + ${count}` }))
    .returning('last')
    .executeTakeFirstOrThrow();
  return Number(row.last);
}

/**
 * Gives back the numbers of a block that were not used, when no server took a block after it: a
 * sandbox stopped and started again goes on from the last number it used.
 */
export async function returnRequestNumbers(trx: Trx, developerId: string, blockLast: number, used: number) {
  await trx
    .updateTable('request_counters')
    .set({ last: used })
    .where('developer_id', '=', developerId)
    .where('last', '=', blockLast)
    .execute();
}

/**
 * Adds requests to the log, then drops each of their developers' oldest rows past `keep`.
 * A number already logged (a block handed out again after a restore) keeps its first row.
 */
export async function insertRequests(trx: Trx, rows: Insertable<RequestLogTable>[], keep: number): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('request_log')
    .values(rows)
    .onConflict((oc) => oc.columns(['developer_id', 'number']).doNothing())
    .execute();
  for (const developerId of new Set(rows.map((row) => row.developer_id))) {
    const cut = await trx
      .selectFrom('request_log')
      .select('number')
      .where('developer_id', '=', developerId)
      .orderBy('number', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (cut)
      await trx
        .deleteFrom('request_log')
        .where('developer_id', '=', developerId)
        .where('number', '<=', cut.number)
        .execute();
  }
}

/** One page of a developer's log, newest first unless `order` is asc; `total` counts every match. */
export async function listRequests(
  db: Db,
  developerId: string,
  query: PageQuery & RequestFilters,
): Promise<Page<RequestLogRow>> {
  let base = db.selectFrom('request_log').where('developer_id', '=', developerId);
  const { status } = query;
  if (status !== undefined && /^\dxx$/.test(status)) {
    const low = Number(status[0]) * 100;
    base = base.where('status', '>=', low).where('status', '<', low + 100);
  } else if (status !== undefined) base = base.where('status', '=', Number(status));
  if (query.path !== undefined) base = base.where(sql`substr(path, 1, ${query.path.length})`, '=', query.path);
  if (query.since !== undefined) base = base.where('at', '>=', query.since);
  if (query.idempotency_key !== undefined) base = base.where('idempotency_key', '=', query.idempotency_key);
  return paginate<RequestLogRow>(base, query, undefined, { by: ['number'] });
}

/** One of the developer's logged requests by its number, or undefined (another developer's too). */
export async function findRequest(db: Db, developerId: string, number: number): Promise<RequestLogRow | undefined> {
  return db
    .selectFrom('request_log')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('number', '=', number)
    .executeTakeFirst();
}

/** The whole request log and its counters, as a restore carries them over (decisions: Request log). */
export interface CarriedRequestLog {
  rows: RequestLogRow[];
  counters: { developer_id: string; last: number }[];
}

export async function readRequestLog(trx: Trx): Promise<CarriedRequestLog> {
  return {
    rows: await trx.selectFrom('request_log').selectAll().execute(),
    counters: await trx.selectFrom('request_counters').selectAll().execute(),
  };
}

/**
 * Puts back the log as it was before a restore, in place of what the snapshot held: the log is
 * not sandbox state, so a restore neither rewinds it nor hands out its request numbers again. A
 * developer the restored sandbox does not know loses its rows (their foreign key has nothing to name);
 * the owner's go to the restored sandbox's owner, as its keys do.
 */
export async function putBackRequestLog(
  trx: Trx,
  carried: CarriedRequestLog,
  owner: { from: string; to: string },
): Promise<void> {
  await trx.deleteFrom('request_log').execute();
  await trx.deleteFrom('request_counters').execute();
  const known = new Set((await trx.selectFrom('developers').select('id').execute()).map((d) => d.id));
  // The owner's log follows its keys to the restored sandbox's owner (snapshots.ts carryKeys).
  const moved = (id: string) => (id === owner.from ? owner.to : id);
  const counters = carried.counters
    .map((c) => ({ ...c, developer_id: moved(c.developer_id) }))
    .filter((c) => known.has(c.developer_id));
  if (counters.length > 0) await trx.insertInto('request_counters').values(counters).execute();
  const rows = carried.rows
    .map((r) => ({ ...r, developer_id: moved(r.developer_id) }))
    .filter((r) => known.has(r.developer_id));
  // A few hundred rows a statement: SQLite takes at most 32,766 parameters in one.
  for (let at = 0; at < rows.length; at += 500)
    await trx
      .insertInto('request_log')
      .values(rows.slice(at, at + 500))
      .execute();
}
