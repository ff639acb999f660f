import type { SelectQueryBuilder } from 'kysely';
import type { Database } from './db/database.js';

export interface PageQuery {
  page: number;
  limit: number;
  order: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

/**
 * Runs a filtered list query as one page: oldest first (ties in insertion order) unless `order`
 * is desc; `total` counts every match. The rows are ordered by `by` (default `created_at`, then
 * `seq`), columns of `table` where the query joins others.
 */
export async function paginate<Row>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  base: SelectQueryBuilder<Database, any, object>,
  query: PageQuery,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  select: (qb: SelectQueryBuilder<Database, any, object>) => SelectQueryBuilder<Database, any, object> = (qb) =>
    qb.selectAll(),
  { table, by = ['created_at', 'seq'] }: { table?: string; by?: readonly string[] } = {},
): Promise<Page<Row>> {
  const col = (name: string) => (table ? `${table}.${name}` : name) as 'seq';
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await by
    .reduce((qb, name) => qb.orderBy(col(name), query.order), select(base))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return { items: rows as Row[], total: Number(counted.total), page: query.page, limit: query.limit };
}

/** Which rows to read for one page of a list whose `total` is known (from a counter). */
export interface PageWindow {
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** The rows come back in the opposite order: turn them round (see `pageWindow`). */
  reversed: boolean;
}

/**
 * Where a page lies in a list of `total` rows read through an index. An index walks from either
 * end alike, but OFFSET walks every row it skips: a page past the middle is read from the other
 * end, so the last page costs what the first does, and no page walks more than half the list.
 * @example const w = pageWindow({ page: 50_000, limit: 20, order: 'asc' }, 1_000_000); // { order: 'desc', offset: 0, limit: 20, reversed: true }
 */
export function pageWindow(query: PageQuery, total: number): PageWindow {
  const offset = (query.page - 1) * query.limit;
  const rest = total - offset;
  if (offset <= rest || rest <= 0) return { order: query.order, offset, limit: query.limit, reversed: false };
  const limit = Math.min(query.limit, rest);
  return { order: query.order === 'asc' ? 'desc' : 'asc', offset: rest - limit, limit, reversed: true };
}

/** The page's rows in the order asked, from rows read through `window`. */
export function inPageOrder<T>(rows: T[], window: PageWindow): T[] {
  return window.reversed ? rows.reverse() : rows;
}
