import { sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import { MAX_BALANCE } from '../env.js';
import type { AccountKind } from './ledger.table.js';

export async function insertAccount(
  trx: Trx,
  row: { id: string; developer_id: string; kind: AccountKind; created_at: string },
): Promise<void> {
  await trx
    .insertInto('accounts')
    .values({ ...row, balance: 0, floor_zero: row.kind === 'WALLET' ? 1 : 0 })
    .execute();
}

/**
 * A developer's system accounts by kind, in the order asked, in one query.
 * @example const [settlement, fees] = await findSystemAccountIds(trx, developerId, ['PROVIDER_SETTLEMENT', 'FEE_INCOME']);
 */
export async function findSystemAccountIds<K extends readonly AccountKind[]>(trx: Trx, developerId: string, kinds: K): Promise<{ [I in keyof K]: string }> {
  const rows = await trx.selectFrom('accounts').select(['id', 'kind']).where('developer_id', '=', developerId).where('kind', 'in', [...kinds]).execute();
  const byKind = new Map(rows.map((r) => [r.kind, r.id]));
  return kinds.map((kind) => {
    const id = byKind.get(kind);
    if (!id) throw new Error(`developer ${developerId} has no ${kind} account`);
    return id;
  }) as { [I in keyof K]: string };
}

export async function findSystemAccountId(trx: Trx, developerId: string, kind: AccountKind): Promise<string> {
  const [id] = await findSystemAccountIds(trx, developerId, [kind] as const);
  return id;
}

/**
 * Moves an account's balance by `delta` in one conditional statement: the floor check and the
 * change happen together, so two debits can never both pass on the same money.
 * Returns the new balance, or undefined when the floor or the safe-integer range would be broken.
 */
export async function applyDelta(trx: Trx, accountId: string, delta: number): Promise<number | undefined> {
  const { rows } = await updateBalance(trx, { accountId, delta });
  return rows[0]?.balance;
}

const updateBalance = prepare((db, p: { accountId: string; delta: number }) =>
  db
    .updateTable('accounts')
    .set({ balance: sql<number>`balance + ${p.delta}` })
    .where('id', '=', p.accountId)
    .where((eb) => eb.or([eb('floor_zero', '=', 0), eb(sql<number>`balance + ${p.delta}`, '>=', 0)]))
    .where(sql<number>`balance + ${p.delta}`, '<=', MAX_BALANCE)
    .where(sql<number>`balance + ${p.delta}`, '>=', -MAX_BALANCE)
    .returning('balance'),
);
