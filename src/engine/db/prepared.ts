import { type Compilable, type CompiledQuery, type Insertable, type Kysely, type QueryResult, sql } from 'kysely';
import type { Database, Trx } from './database.js';
import { keptRowsNow, runDirect } from './backend.js';
import { isPostgres } from './dialect.js';

/** Stands for a value in a prepared query; replaced by the real value at each run. */
class Slot {
  constructor(readonly name: string) {}
}

const slots = new Proxy({}, { get: (_target, name) => new Slot(String(name)) });

/**
 * What `make` gives for the dialect of the database it is asked for, made the first time that
 * dialect is asked (by the database's Kysely adapter class): SQL compiled for SQLite is not
 * PostgreSQL's (`?` against `$1`, among others), and one process may serve both.
 */
function perDialect<C>(make: (db: Kysely<Database>) => C): (db: Kysely<Database>) => C {
  const byAdapter = new Map<unknown, C>();
  // The dialect asked last, looked up first: a process mostly serves one.
  let lastAdapter: unknown;
  let last: C | undefined;
  return (db) => {
    const adapter = db.getExecutor().adapter.constructor;
    if (adapter === lastAdapter) return last!;
    let made = byAdapter.get(adapter);
    if (made === undefined) {
      made = make(db);
      byAdapter.set(adapter, made);
    }
    lastAdapter = adapter;
    last = made;
    return made;
  };
}

/** Tables whose reads the connection may keep in memory until a row of them changes (see `prepare`'s `keptUntil`). */
export const KEPT_TABLES = ['api_keys', 'agents', 'developers', 'webhook_urls'] as const;
export type KeptTable = (typeof KEPT_TABLES)[number];

/** The comment a kept read's SQL starts with: the connection (open.ts) keeps its rows by its values. */
export const keptMark = (table: KeptTable) => `/* kept until ${table} changes */ `;

/**
 * A query built and compiled by Kysely once (for each dialect it runs on), then run many times with new values. Kysely builds
 * its operation tree and compiles it to SQL on every call; for the ledger's hot statements (the
 * same few shapes on every transfer) that was a third of the CPU time of a request. The query is
 * written with the usual builder, typed as usual: `p.walletId` stands for the value given at run
 * time. Values must have a fixed shape (no optional columns, no `in` lists of varying length).
 * @example
 * const findAgents = prepare((db, p: { walletId: string }) => db.selectFrom('agents').selectAll().where('wallet_id', '=', p.walletId));
 * const { rows } = await findAgents(trx, { walletId });
 *
 * A read of a table that seldom changes, asked on every request (the caller's API key, a wallet's
 * agents), may pass `keptUntil`: the connection answers it from memory, by its values, until a row
 * of that table changes or any transaction or savepoint rolls back (which may undo a change). Its
 * rows are copies: change them freely.
 */
export function prepare<P extends object, O>(
  build: (db: Kysely<Database>, p: P) => Compilable<O>,
  options: { keptUntil?: KeptTable } = {},
): Prepared<P, O> {
  const compiled = perDialect((db) => {
    const built = build(db, slots as P).compile();
    const template = options.keptUntil ? { ...built, sql: `${keptMark(options.keptUntil)}${built.sql}` } : built;
    const names = template.parameters.map((parameter) => (parameter instanceof Slot ? parameter.name : undefined));
    return { template, names };
  });
  const bind = (trx: Trx, values: P) => {
    const { template, names } = compiled(trx);
    const parameters = names.map((name, i) => {
      if (name === undefined) return template.parameters[i];
      const value = (values as Record<string, unknown>)[name];
      if (value === undefined) throw new Error(`prepared query: no value for ${name}`);
      return value;
    });
    return { template, parameters };
  };
  // A kept read outside a transaction: its committed rows, when the connection holds them.
  const inMemory = (trx: Trx) => Boolean(options.keptUntil) && !trx.isTransaction;
  const known = (trx: Trx, values: P): O[] | undefined => {
    if (!inMemory(trx)) return undefined;
    const { template, parameters } = bind(trx, values);
    return keptRowsNow<O>(trx, template.sql, parameters);
  };
  const run = async (trx: Trx, values: P): Promise<QueryResult<O>> => {
    const { template, parameters } = bind(trx, values);
    const kept = inMemory(trx) ? keptRowsNow<O>(trx, template.sql, parameters) : undefined;
    if (kept) return { rows: kept };
    return runDirect<O>(trx, template.sql, parameters) ?? trx.executeQuery<O>({ ...template, parameters });
  };
  return Object.assign(run, { known });
}

/** A prepared statement: run it with its values; `known` answers a kept read outside a transaction from memory only (undefined: run it). */
export type Prepared<P, O> = ((trx: Trx, values: P) => Promise<QueryResult<O>>) & {
  known(trx: Trx, values: P): O[] | undefined;
};

/**
 * A statement over several rows at once (a multi-row INSERT), prepared as `prepare` does, once for
 * each number of rows it is given: two legs of a transfer cost one statement instead of two.
 * `build` gets one stand-in per row.
 * @example const insertEntries = prepareRows((db, rows: Entry[]) => db.insertInto('entries').values(rows));
 */
export function prepareRows<R extends object, O>(
  build: (db: Kysely<Database>, rows: R[]) => Compilable<O>,
): (trx: Trx, rows: R[]) => Promise<QueryResult<O>> {
  /** For each number of rows: the compiled statement, and for each of its parameters the row and key it comes from. */
  const byCount = perDialect(
    () => new Map<number, { template: CompiledQuery<O>; from: ([number, string] | undefined)[] }>(),
  );
  return (trx, rows) => {
    const compiledFor = byCount(trx);
    let compiled = compiledFor.get(rows.length);
    if (!compiled) {
      const stand = Array.from(
        { length: rows.length },
        (_, i) => new Proxy({}, { get: (_target, key) => new Slot(`${i}:${String(key)}`) }) as R,
      );
      const template = build(trx, stand).compile();
      const from = template.parameters.map((p) =>
        p instanceof Slot
          ? ([Number(p.name.slice(0, p.name.indexOf(':'))), p.name.slice(p.name.indexOf(':') + 1)] as [number, string])
          : undefined,
      );
      compiled = { template, from };
      compiledFor.set(rows.length, compiled);
    }
    const { template, from } = compiled;
    const parameters = from.map((source, i) => {
      if (!source) return template.parameters[i];
      const value = (rows[source[0]] as Record<string, unknown>)[source[1]];
      if (value === undefined) throw new Error(`prepared query: no value for ${source[1]} of row ${source[0]}`);
      return value;
    });
    return runDirect<O>(trx, template.sql, parameters) ?? trx.executeQuery<O>({ ...template, parameters });
  };
}

/** A prepared INSERT of any number of rows into `table`, with exactly `columns` (see prepareRows). */
export function prepareInsertRows<T extends keyof Database & string, K extends keyof Insertable<Database[T]> & string>(
  table: T,
  columns: readonly K[],
): (trx: Trx, rows: Pick<Insertable<Database[T]>, K>[]) => Promise<QueryResult<unknown>> {
  return prepareRows((db, rows: Pick<Insertable<Database[T]>, K>[]) => insertOf(db, table, columns, rows));
}

/** INSERT of `rows` into `table`, each with exactly `columns` in that order (the prepared shape). */
const insertOf = <T extends keyof Database & string, K extends string>(
  db: Kysely<Database>,
  table: T,
  columns: readonly K[],
  rows: Record<K, unknown>[],
) => db.insertInto(table).values(rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]]))) as never);

/** Tables whose rows the insert numbers: an integer `seq` the database assigns. */
type Numbered = { [T in keyof Database & string]: 'seq' extends keyof Database[T] ? T : never }[keyof Database &
  string];

/**
 * A prepared INSERT of any number of rows into `table`, with exactly `columns`, answering the seqs
 * the database gave the rows, in the order the rows were given. Only the seqs come back: build the
 * stored rows from their values (RETURNING * costs more than the insert's own index work).
 * SQLite numbers one statement's rows consecutively, the last of them its insert id, and runs the
 * plain INSERT (its fastest statement; better-sqlite3 treats a RETURNING insert as a read).
 * PostgreSQL has no insert id: it answers RETURNING seq, sorted, because it numbers one VALUES
 * list in order (not always consecutively: other connections take numbers meanwhile) but does not
 * promise RETURNING's order.
 * @example const [postingSeq] = await insertPosting(trx, [{ developer_id, kind, created_at }]);
 */
export function prepareInsertSeqs<T extends Numbered, K extends keyof Insertable<Database[T]> & string>(
  table: T,
  columns: readonly K[],
): (trx: Trx, rows: Pick<Insertable<Database[T]>, K>[]) => Promise<number[]> {
  const insert = prepareRows((db, rows: Pick<Insertable<Database[T]>, K>[]) => {
    const query = insertOf(db, table, columns, rows);
    return isPostgres(db) ? query.returning(sql<number>`seq`.as('seq')) : query;
  });
  return async (trx, rows) => {
    const result = await insert(trx, rows);
    if (isPostgres(trx))
      return (result.rows as unknown as { seq: number | bigint | string }[])
        .map((row) => Number(row.seq))
        .sort((a, b) => a - b);
    const first = Number(result.insertId) - rows.length + 1;
    return rows.map((_, i) => first + i);
  };
}
