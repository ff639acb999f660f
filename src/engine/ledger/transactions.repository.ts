import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
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
function shown<R extends Selectable<TransactionTable> & { wallet_id: string; developer_id: string }>(row: R): TransactionRow {
  return { ...row, created_at: isoTime(row.created_at), updated_at: isoTimeOrNull(row.updated_at) };
}

export async function findTransaction(trx: Trx, developerId: string, id: string): Promise<TransactionRow | undefined> {
  const row = await withWallet(trx).where('transactions.id', '=', id).where('accounts.developer_id', '=', developerId).executeTakeFirst();
  return row && shown(row);
}

/**
 * One page of a wallet's transactions in (created_at, seq) order through the matching index, with
 * `total` from the wallet's counters: the same cost at any depth (see pageWindow).
 */
export async function listWalletTransactions(
  trx: Trx,
  walletId: string,
  query: PageQuery & { type?: TransactionType | undefined },
): Promise<Page<TransactionRow>> {
  let items = withWallet(trx).where('accounts.id', '=', walletId);
  let counts = trx.selectFrom('transaction_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.val(0)).as('total')).where('wallet_id', '=', walletId);
  if (query.type) {
    items = items.where('transactions.type', '=', query.type);
    counts = counts.where('type', '=', query.type);
  }
  const total = Number((await counts.executeTakeFirstOrThrow()).total);
  const window = pageWindow(query, total);
  const rows = await items
    .orderBy('transactions.created_at', window.order)
    .orderBy('transactions.seq', window.order)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { items: inPageOrder(rows, window).map(shown), total, page: query.page, limit: query.limit };
}
