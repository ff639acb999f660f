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
 * is desc; `total` counts every match. `table` names whose `created_at` and `seq` order the rows.
 */
export async function paginate<Row>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  base: SelectQueryBuilder<Database, any, object>,
  query: PageQuery,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  select: (qb: SelectQueryBuilder<Database, any, object>) => SelectQueryBuilder<Database, any, object> = (qb) =>
    qb.selectAll(),
  table?: string,
): Promise<Page<Row>> {
  const col = (name: string) => (table ? `${table}.${name}` : name) as 'seq';
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await select(base)
    .orderBy(col('created_at'), query.order)
    .orderBy(col('seq'), query.order)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return { items: rows as Row[], total: Number(counted.total), page: query.page, limit: query.limit };
}
