import { sql } from 'kysely';
import type { Trx } from './database.js';

// Plain SQL savepoints (SQLite and PostgreSQL spell them alike). Nested ones may share the name:
// ROLLBACK TO and RELEASE act on the innermost savepoint of that name.
const SAVEPOINT = sql.raw('savepoint attempt');
const RELEASE = sql.raw('release savepoint attempt');
const ROLLBACK_TO = sql.raw('rollback to savepoint attempt');

/**
 * Runs `work` inside a savepoint of the caller's transaction: if it throws, everything it wrote is
 * undone and the error is rethrown, while the transaction goes on. For a step that may be refused
 * without undoing what came before it (an agent's sweep, a payout's delivery).
 * @example
 * try { await inSavepoint(trx, () => moveBetweenWallets(trx, env, from, to, amount, options)); }
 * catch (error) { if (!(error instanceof LedgerError)) throw error; // record the refusal }
 */
export async function inSavepoint<T>(trx: Trx, work: () => Promise<T>): Promise<T> {
  await SAVEPOINT.execute(trx);
  let value: T;
  try {
    value = await work();
  } catch (error) {
    await ROLLBACK_TO.execute(trx);
    await RELEASE.execute(trx);
    throw error;
  }
  await RELEASE.execute(trx);
  return value;
}
