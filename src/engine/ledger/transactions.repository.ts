import type { Trx } from '../db/database.js';
import type { TransactionType } from './ledger.table.js';
import type { TransactionRow } from './ledger.service.js';
import { inPageOrder, type Page, type PageQuery, pageWindow } from '../paging.js';

export async function findTransaction(trx: Trx, developerId: string, id: string): Promise<TransactionRow | undefined> {
  return trx
    .selectFrom('transactions')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('id', '=', id)
    .executeTakeFirst();
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
  let items = trx.selectFrom('transactions').selectAll().where('wallet_id', '=', walletId);
  let counts = trx.selectFrom('transaction_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.val(0)).as('total')).where('wallet_id', '=', walletId);
  if (query.type) {
    items = items.where('type', '=', query.type);
    counts = counts.where('type', '=', query.type);
  }
  const total = Number((await counts.executeTakeFirstOrThrow()).total);
  const window = pageWindow(query, total);
  const rows = await items.orderBy('created_at', window.order).orderBy('seq', window.order).limit(window.limit).offset(window.offset).execute();
  return { items: inPageOrder(rows, window), total, page: query.page, limit: query.limit };
}
