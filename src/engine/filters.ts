import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Trx } from './db/database.js';
import { containsText } from './search/search-terms.js';

/** What support staff narrow a list by (decisions: Requests and validation); every bound is inclusive. */
export interface ListFilters {
  since?: Date | undefined;
  until?: Date | undefined;
  amount_min?: number | undefined;
  amount_max?: number | undefined;
  /** Part of the sender's name, in any case. */
  sender?: string | undefined;
  provider_reference?: string | undefined;
  /** Any of these statuses. */
  status?: string[] | undefined;
  wallet_id?: string | undefined;
  customer_reference?: string | undefined;
}

/** Where a list keeps what the filters compare, and how its times are stored. */
export interface FilterColumns {
  time: string;
  /** A time as the column stores it: epoch ms, or ISO text (which sorts as its instant does). */
  stored: (time: Date) => number | string;
  amount?: string;
  sender?: string;
  reference?: string;
  status: string;
}

/** The columns of a table that records payments as transactions and suspense items do (`created_at`, `amount`, `sender_name`...). */
export function paymentColumns(table: string, stored: FilterColumns['stored']): FilterColumns {
  return {
    time: `${table}.created_at`,
    stored,
    amount: `${table}.amount`,
    sender: `${table}.sender_name`,
    reference: `${table}.provider_reference`,
    status: `${table}.status`,
  };
}

/** True when a filter other than the status asks more than the list's counters know. */
export function narrowed(filters: ListFilters): boolean {
  const { since, until, amount_min, amount_max, sender, provider_reference } = filters;
  return [since, until, amount_min, amount_max, sender, provider_reference].some((value) => value !== undefined);
}

/**
 * Adds the filters' conditions to a list query. The time bounds go first, on the column the list's
 * index orders by, so a bounded list reads only its range; the others are checked on each row read.
 * @example whereFilters(trx.selectFrom('suspense_items'), { time: 'created_at', stored: (d) => d.toISOString(), status: 'status' }, { since })
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function whereFilters<QB extends SelectQueryBuilder<Database, any, any>>(
  qb: QB,
  columns: FilterColumns,
  filters: ListFilters,
): QB {
  let q = qb as SelectQueryBuilder<Database, never, object>;
  const ref = (column: string) => sql.ref(column);
  if (filters.since) q = q.where(ref(columns.time), '>=', columns.stored(filters.since));
  if (filters.until) q = q.where(ref(columns.time), '<=', columns.stored(filters.until));
  if (filters.status?.length) q = q.where(ref(columns.status), 'in', [...new Set(filters.status)]);
  if (columns.amount && filters.amount_min !== undefined) q = q.where(ref(columns.amount), '>=', filters.amount_min);
  if (columns.amount && filters.amount_max !== undefined) q = q.where(ref(columns.amount), '<=', filters.amount_max);
  if (columns.sender && filters.sender !== undefined) q = q.where(containsText(columns.sender, filters.sender));
  if (columns.reference && filters.provider_reference !== undefined)
    q = q.where(ref(columns.reference), '=', filters.provider_reference);
  return q as unknown as QB;
}

/**
 * The developer's wallet that `wallet_id` and `customer_reference` name together (both must hold),
 * `null` when none does (another developer's wallet is none), or undefined when neither is given.
 */
export async function filteredWallet(
  trx: Trx,
  developerId: string,
  filters: ListFilters,
): Promise<{ id: string; seq: number } | null | undefined> {
  if (filters.wallet_id === undefined && filters.customer_reference === undefined) return undefined;
  let query = trx
    .selectFrom('wallets')
    .innerJoin('accounts', 'accounts.id', 'wallets.id')
    .select(['wallets.id', 'accounts.seq'])
    .where('wallets.developer_id', '=', developerId);
  if (filters.wallet_id !== undefined) query = query.where('wallets.id', '=', filters.wallet_id);
  if (filters.customer_reference !== undefined)
    query = query.where('wallets.customer_reference', '=', filters.customer_reference);
  return (await query.executeTakeFirst()) ?? null;
}
