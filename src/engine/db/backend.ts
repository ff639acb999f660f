import type { Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * What a backend adds to the databases it opens, beyond Kysely: a faster path for a statement the
 * engine prepared (prepared.ts), and a place for reads that scale with the data. A database with
 * none (a backend that adds nothing) runs everything through Kysely, in the caller's thread.
 */
export interface BackendHooks {
  /** Runs a compiled statement on the connection `trx` holds; undefined when it cannot (then the caller runs it through Kysely). */
  runDirect?<O>(trx: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<QueryResult<O>> | undefined;
  /** A kept read's committed rows from memory (prepared.ts `keptUntil`); undefined: run it. */
  keptRowsNow?<O>(sql: string, parameters: readonly unknown[]): O[] | undefined;
  /** Runs a read that scales with the data where it holds up no request (see `readApart`). */
  readApart?<A extends unknown[], R>(job: StorageJob<A, R>, ...args: A): Promise<R>;
}

/** By each database's Kysely adapter: its transactions share it. */
const hooks = new WeakMap<object, BackendHooks>();

/** Called by a backend for each database it opens; later calls add to what earlier ones gave. */
export function registerBackend(db: Kysely<any>, added: BackendHooks): void {
  const adapter = db.getExecutor().adapter;
  hooks.set(adapter, { ...hooks.get(adapter), ...added });
}

const of = (db: Kysely<any>) => hooks.get(db.getExecutor().adapter);

/**
 * Runs a compiled statement on the connection `trx` holds, when its backend offers that (SQLite:
 * its statement cache, inside a transaction); otherwise undefined, and the caller runs it through Kysely.
 * @example return runDirect<O>(trx, compiled.sql, parameters) ?? trx.executeQuery<O>(compiled);
 */
export function runDirect<O>(
  trx: Kysely<any>,
  sql: string,
  parameters: readonly unknown[],
): Promise<QueryResult<O>> | undefined {
  return of(trx)?.runDirect?.<O>(trx, sql, parameters);
}

/** A kept read answered from memory by the database's backend, or undefined (run it). */
export function keptRowsNow<O>(db: Kysely<any>, sql: string, parameters: readonly unknown[]): O[] | undefined {
  return of(db)?.keptRowsNow?.<O>(sql, parameters);
}

/**
 * Runs a read that scales with the data (an audit of a million transactions) where it holds up no
 * request: on SQLite a worker thread with its own connection; where the backend offers nothing
 * apart, one read transaction here.
 * @example const report = await readApart(db, { module: 'engine/audit/audit.service', name: 'audit', run: audit }, developerId);
 */
export function readApart<A extends unknown[], R>(db: Kysely<Database>, job: StorageJob<A, R>, ...args: A): Promise<R> {
  const apart = of(db)?.readApart;
  if (apart) return apart(job, ...args);
  return db.transaction().execute((trx: Transaction<Database>) => job.run(trx, ...args));
}

/**
 * Work run apart from the request thread: an exported function of a module, given a transaction.
 * Named by module and export so that another thread (or process) can load it; `run` is the
 * function itself, for where it runs here.
 */
export interface StorageJob<A extends unknown[], R> {
  /** The module's path under src/ (dist/ when built), without its extension: `engine/audit/audit.service`. */
  module: string;
  /** The name it is exported under. */
  name: string;
  run: (trx: Transaction<Database>, ...args: A) => Promise<R>;
}
