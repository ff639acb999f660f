import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Trx } from '../db/database.js';
import { filteredWallet, type ListFilters, narrowed, paymentColumns, whereFilters } from '../filters.js';
import { isoTime, isoTimeOrNull } from '../events/stored.js';
import type { TransactionTable, TransactionType } from './ledger.table.js';
import type { TransactionRow } from './ledger.service.js';
import { inPageOrder, type Page, type PageQuery, pageWindow } from '../paging.js';

/** Transactions with their wallet's account, whose id is the wallet's and whose developer is theirs (migration 0019a). */
const withWallet = (trx: Trx) =>
  trx
    .selectFrom('transactions')
    .innerJoin('accounts', 'accounts.seq', 'transactions.account_seq')
    .selectAll('transactions')
    .select(['accounts.id as wallet_id', 'accounts.developer_id']);

/** A stored row as the API knows it: its times, stored as milliseconds (migration 0019b), as the ISO text they were made from. */
function shown<R extends Selectable<TransactionTable> & { wallet_id: string; developer_id: string }>(
  row: R,
): TransactionRow {
  return { ...row, created_at: isoTime(row.created_at), updated_at: isoTimeOrNull(row.updated_at) };
}

export async function findTransaction(trx: Trx, developerId: string, id: string): Promise<TransactionRow | undefined> {
  const row = await withWallet(trx)
    .where('transactions.id', '=', id)
    .where('accounts.developer_id', '=', developerId)
    .executeTakeFirst();
  return row && shown(row);
}

type TransactionQuery = PageQuery & ListFilters & { type?: TransactionType | undefined };

const TRANSACTION_COLUMNS = paymentColumns('transactions', (time) => time.getTime());

/**
 * One page of a wallet's transactions in (created_at, seq) order through the matching index, with
 * `total` from the wallet's counters: the same cost at any depth (see pageWindow). A filter beyond
 * the type and status is counted over the rows it reads (the time bounds read only their range).
 */
export async function listWalletTransactions(
  trx: Trx,
  walletId: string,
  query: TransactionQuery,
): Promise<Page<TransactionRow>> {
  const counters = trx.selectFrom('transaction_counts').where('wallet_id', '=', walletId);
  return listPage(trx, query, (qb) => qb.where('accounts.id', '=', walletId), counters);
}

/**
 * One page of every wallet's transactions of a developer (`GET /v1/transactions`), in (created_at,
 * seq) order through `transactions_time`; the wallet filters narrow it to one wallet's list, or to
 * nothing when they name no wallet of the developer's.
 */
export async function listDeveloperTransactions(
  trx: Trx,
  developerId: string,
  query: TransactionQuery,
): Promise<Page<TransactionRow>> {
  const wallet = await filteredWallet(trx, developerId, query);
  if (wallet === null) return { items: [], total: 0, page: query.page, limit: query.limit };
  if (wallet) return listWalletTransactions(trx, wallet.id, query);
  const wallets = trx
    .selectFrom('wallets')
    .innerJoin('accounts', 'accounts.id', 'wallets.id')
    .select('accounts.seq')
    .where('wallets.developer_id', '=', developerId);
  const counters = trx
    .selectFrom('transaction_counts')
    .where('wallet_id', 'in', trx.selectFrom('wallets').select('id').where('developer_id', '=', developerId));
  // A developer holding a fair share of the rows (a sandbox is mostly one developer's) walks the
  // time index in order, and a page stops at its last row; the unary + keeps SQLite from gathering
  // each wallet's rows through transactions_wallet instead. One with few among many others' gathers
  // and sorts its own, rather than walking past every row of theirs.
  const mine = Number(
    (await counters.select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.val(0)).as('n')).executeTakeFirstOrThrow())
      .n,
  );
  const last = Number(
    (
      await trx
        .selectFrom('transactions')
        .select((eb) => eb.fn.coalesce(eb.fn.max('seq'), eb.val(0)).as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const walk = mine * WALK_SHARE >= last;
  return listPage(
    trx,
    query,
    (qb) => qb.where(walk ? sql`+transactions.account_seq` : sql.ref('transactions.account_seq'), 'in', wallets),
    counters,
  );
}

/** Walk the time index when the developer holds at least 1 row in this many (max(seq) counts every row ever made). */
const WALK_SHARE = 10;

async function listPage(
  trx: Trx,
  query: TransactionQuery,
  scope: (qb: ReturnType<typeof withWallet>) => ReturnType<typeof withWallet>,
  counters: SelectQueryBuilder<Database, 'transaction_counts', object>,
): Promise<Page<TransactionRow>> {
  let items = whereFilters(scope(withWallet(trx)), TRANSACTION_COLUMNS, query);
  if (query.type) items = items.where('transactions.type', '=', query.type);
  let total: number;
  if (narrowed(query) || query.status?.length) {
    total = Number(
      (
        await items
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .executeTakeFirstOrThrow()
      ).total,
    );
  } else {
    const counted = query.type ? counters.where('type', '=', query.type) : counters;
    total = Number(
      (
        await counted
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.val(0)).as('total'))
          .executeTakeFirstOrThrow()
      ).total,
    );
  }
  const window = pageWindow(query, total);
  const rows = await items
    .orderBy('transactions.created_at', window.order)
    .orderBy('transactions.seq', window.order)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { items: inPageOrder(rows, window).map(shown), total, page: query.page, limit: query.limit };
}
