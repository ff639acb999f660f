import type { Trx } from '../db/database.js';
import type { TransactionType } from './ledger.table.js';
import type { TransactionRow } from './ledger.service.js';
import { type Page, type PageQuery, paginate } from '../paging.js';

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
  let base = trx.selectFrom('transactions').where('wallet_id', '=', walletId);
  if (query.type) base = base.where('type', '=', query.type);
  return paginate<TransactionRow>(base, query);
}
