import type { Trx } from '../db/database.js';
import type { TransactionType } from './ledger.table.js';
import type { TransactionRow } from './ledger.service.js';
import type { Page, PageQuery } from '../paging.js';

export async function findTransaction(trx: Trx, developerId: string, id: string): Promise<TransactionRow | undefined> {
  return trx
    .selectFrom('transactions')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

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
  const [rows, counted] = await Promise.all([
    items
      .orderBy('created_at', query.order)
      .orderBy('seq', query.order)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    counts.executeTakeFirstOrThrow(),
  ]);
  return { items: rows, total: Number(counted.total), page: query.page, limit: query.limit };
}
