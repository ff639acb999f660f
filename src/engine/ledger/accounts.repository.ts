import { sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import { MAX_BALANCE, MAX_SYSTEM_BALANCE_SQL } from '../env.js';
import { invalidField, LedgerError } from '../errors.js';
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
export async function findSystemAccountIds<K extends readonly AccountKind[]>(
  trx: Trx,
  developerId: string,
  kinds: K,
): Promise<{ [I in keyof K]: string }> {
  const rows = await trx
    .selectFrom('accounts')
    .select(['id', 'kind'])
    .where('developer_id', '=', developerId)
    .where('kind', 'in', [...kinds])
    .execute();
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
 * Moves an account's balance by `delta` in one conditional statement: the bound check and the
 * change happen together, so two debits can never both pass on the same money.
 * Returns a wallet's new balance (0 for a system account: see walletBalance) and the account's seq, or undefined when a bound would be broken: a
 * wallet's floor of 0 or its ceiling (MAX_BALANCE less its pending payouts, so that a reversal
 * always fits), or a system account's ±MAX_SYSTEM_BALANCE_SQL. `refusalOf` says which.
 */
export async function applyDelta(
  trx: Trx,
  accountId: string,
  delta: number,
): Promise<{ balance: number; seq: number } | undefined> {
  const { rows } = await (delta < 0 ? lowerBalance : raiseBalance)(trx, { accountId, delta });
  return rows[0];
}

/**
 * Integer arithmetic in SQL: a bound JavaScript number is a REAL, and REAL sums past 2^53 round. `bigint`, not
 * `integer`: PostgreSQL's `integer` stops at 2^31 − 1 (SQLite reads either name as an integer).
 */
const newBalance = (delta: number) => sql<number>`balance + cast(${delta} as bigint)`;

/**
 * The balance a change gives back: a wallet's, which a transaction row records. A system account's
 * is never read, and may be past 2^53, which no JS number holds exactly: SQLite would hand back a
 * rounded number, PostgreSQL's reader (postgres/types.ts) refuses it and with it every posting.
 */
const walletBalance = sql<number>`case when floor_zero = 1 then balance else 0 end`.as('balance');

const lowerBalance = prepare((db, p: { accountId: string; delta: number }) =>
  db
    .updateTable('accounts')
    .set({ balance: newBalance(p.delta) })
    .where('id', '=', p.accountId)
    .where(
      newBalance(p.delta),
      '>=',
      sql<number>`case when floor_zero = 1 then 0 else -${sql.raw(MAX_SYSTEM_BALANCE_SQL)} end`,
    )
    .returning([walletBalance, 'seq']),
);

/** A wallet's pending payouts, amount and fee: money on its way out that may come back. */
const pendingSum = sql`coalesce(sum(payouts.amount + payouts.fee), 0)`;
const pendingPayouts = sql<number>`(select ${pendingSum} from payouts where payouts.wallet_id = accounts.id and payouts.status = 'PENDING')`;

const raiseBalance = prepare((db, p: { accountId: string; delta: number }) =>
  db
    .updateTable('accounts')
    .set({ balance: newBalance(p.delta) })
    .where('id', '=', p.accountId)
    .where(
      newBalance(p.delta),
      '<=',
      sql<number>`case when floor_zero = 1 then ${sql.raw(String(MAX_BALANCE))} - ${pendingPayouts} else ${sql.raw(MAX_SYSTEM_BALANCE_SQL)} end`,
    )
    .returning([walletBalance, 'seq']),
);

/** A wallet short of money: what it holds and what the movement needs, in kobo (`needs` may say what it is made of). */
export function insufficientFunds(balance: number, needs: number, madeOf = ''): LedgerError {
  return new LedgerError(
    'INSUFFICIENT_FUNDS',
    `insufficient funds: the wallet's balance is ${balance} kobo, and this needs ${needs} kobo${madeOf}`,
  );
}

/**
 * Why `applyDelta` refused a change: a wallet short of money is INSUFFICIENT_FUNDS (422); any
 * account that would pass its ceiling is a 400 on `amount`, the request's amount being too large.
 */
export async function refusalOf(trx: Trx, accountId: string, delta: number): Promise<LedgerError> {
  const account = await trx
    .selectFrom('accounts')
    .select(['kind', 'balance'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) throw new Error(`no account ${accountId}`);
  if (account.kind !== 'WALLET') {
    return invalidField(
      'amount',
      `the developer's ${account.kind.toLowerCase()} account would pass ${MAX_SYSTEM_BALANCE_SQL} kobo, the most the ledger keeps in one account`,
    );
  }
  if (delta < 0) return insufficientFunds(account.balance, -delta);
  return invalidField(
    'amount',
    `the wallet would hold more than ${MAX_BALANCE} kobo (2^53 − 1, counting its pending payouts), the most the ledger keeps in one wallet`,
  );
}
