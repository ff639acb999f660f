import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { WalletStatus, WalletTable } from './wallets.table.js';

export type WalletRow = Selectable<WalletTable> & { balance: number };

function withBalance(trx: Trx) {
  return trx
    .selectFrom('wallets')
    .innerJoin('accounts', 'accounts.id', 'wallets.id')
    .selectAll('wallets')
    .select('accounts.balance');
}

const walletById = prepare((db, p: { developerId: string; id: string }) =>
  withBalance(db).where('wallets.developer_id', '=', p.developerId).where('wallets.id', '=', p.id),
);

export async function findWallet(trx: Trx, developerId: string, id: string): Promise<WalletRow | undefined> {
  return (await walletById(trx, { developerId, id })).rows[0];
}

const walletByAccountNumber = prepare((db, p: { accountNumber: string }) =>
  withBalance(db).where('wallets.account_number', '=', p.accountNumber),
);

/** Any developer's wallet by its virtual account number (the provider routes on it). */
export async function findWalletByAccountNumber(trx: Trx, accountNumber: string): Promise<WalletRow | undefined> {
  return (await walletByAccountNumber(trx, { accountNumber })).rows[0];
}

// The source by id and a destination by account number in one statement (an internal transfer
// reads both): SQLite answers the OR from the two unique indexes, each row found once.
const walletAndDestination = prepare((db, p: { developerId: string; id: string; accountNumber: string }) =>
  withBalance(db).where((eb) =>
    eb.or([
      eb.and([eb('wallets.developer_id', '=', p.developerId), eb('wallets.id', '=', p.id)]),
      eb('wallets.account_number', '=', p.accountNumber),
    ]),
  ),
);

/**
 * A developer's wallet by id (as `findWallet`) and any developer's wallet by account number (as
 * `findWalletByAccountNumber`), read together; either may be undefined, and both the same wallet.
 */
export async function findWalletAndDestination(
  trx: Trx,
  developerId: string,
  id: string,
  accountNumber: string,
): Promise<{ wallet: WalletRow | undefined; destination: WalletRow | undefined }> {
  const { rows } = await walletAndDestination(trx, { developerId, id, accountNumber });
  return {
    wallet: rows.find((row) => row.id === id && row.developer_id === developerId),
    destination: rows.find((row) => row.account_number === accountNumber),
  };
}

export async function accountNumberTaken(trx: Trx, accountNumber: string): Promise<boolean> {
  const row = await trx
    .selectFrom('wallets')
    .select('id')
    .where('account_number', '=', accountNumber)
    .executeTakeFirst();
  return row !== undefined;
}

export async function customerReferenceTaken(trx: Trx, developerId: string, reference: string): Promise<boolean> {
  const row = await trx
    .selectFrom('wallets')
    .select('id')
    .where('developer_id', '=', developerId)
    .where('customer_reference', '=', reference)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listWallets(
  trx: Trx,
  developerId: string,
  query: PageQuery & { status?: WalletStatus | undefined; customer_reference?: string | undefined },
): Promise<Page<WalletRow>> {
  let base = trx
    .selectFrom('wallets')
    .innerJoin('accounts', 'accounts.id', 'wallets.id')
    .where('wallets.developer_id', '=', developerId);
  if (query.status) base = base.where('wallets.status', '=', query.status);
  if (query.customer_reference) base = base.where('wallets.customer_reference', '=', query.customer_reference);
  return paginate<WalletRow>(base, query, (qb) => qb.selectAll('wallets').select('accounts.balance'), {
    table: 'wallets',
  });
}
