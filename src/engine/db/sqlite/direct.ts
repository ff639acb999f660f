import type { Kysely, QueryResult } from 'kysely';
import { registerBackend } from '../backend.js';

/** What a statement of the connection's cache offers (a better-sqlite3 statement, or open.ts's stand-ins for one). */
interface Statement {
  reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  /** A kept read's committed rows for these values, from memory only (open.ts `keptStatement`). */
  peek?(parameters: readonly unknown[]): unknown[] | undefined;
}

interface Connection {
  /** The connection's own statement cache (open.ts's `withStatementCache`: kept reads and injected faults included). */
  prepare(sql: string): Statement;
  /** Whether a transaction is open on the connection (better-sqlite3's `inTransaction`). */
  inTransaction(): boolean;
}

/** Each database opened by open.ts, by its Kysely adapter: its transactions share the adapter. */
const connections = new WeakMap<object, Connection>();

/** Called by open.ts for each database it opens: the seam's direct path (backend.ts) runs here. */
export function registerConnection(db: Kysely<any>, connection: Connection): void {
  connections.set(db.getExecutor().adapter, connection);
  registerBackend(db, { runDirect, keptRowsNow: (sql, parameters) => keptRowsNow(db, sql, parameters) });
}

/**
 * Runs a compiled statement straight on the connection that `trx` holds, as Kysely's SQLite driver
 * would (same statement cache, same result shape), when `trx` is a transaction of a database that
 * open.ts opened and that connection is in a transaction; otherwise undefined, and the caller runs it
 * through Kysely. Inside a transaction the connection is already this caller's, so Kysely's
 * executor (its connection provider, its result transforms: a chain of closures and promises per
 * statement) adds nothing but work and garbage. Under a transfer load Kysely's own frames were
 * 13.5-14 % of the server's CPU samples, 7 % with this.
 */
export function runDirect<O>(
  trx: Kysely<any>,
  sql: string,
  parameters: readonly unknown[],
): Promise<QueryResult<O>> | undefined {
  if (!trx.isTransaction) return undefined;
  const connection = connections.get(trx.getExecutor().adapter);
  if (!connection?.inTransaction()) return undefined;
  try {
    const statement = connection.prepare(sql);
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as O[] });
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A kept read (`prepare`'s `keptUntil`) answered from the connection's memory when it holds that
 * read's committed rows (read outside any transaction, not cleared since); otherwise undefined, and
 * the caller runs it. Outside a transaction Kysely would wait for the connection (a group-commit
 * batch holds it across its awaits) to read rows it already has: the API-key check of every request.
 */
export function keptRowsNow<O>(db: Kysely<any>, sql: string, parameters: readonly unknown[]): O[] | undefined {
  return connections.get(db.getExecutor().adapter)?.prepare(sql).peek?.(parameters) as O[] | undefined;
}
