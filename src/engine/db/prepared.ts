import type { Compilable, CompiledQuery, Insertable, Kysely, QueryResult, Selectable } from 'kysely';
import type { Database, Trx } from './database.js';

/** Stands for a value in a prepared query; replaced by the real value at each run. */
class Slot {
  constructor(readonly name: string) {}
}

const slots = new Proxy({}, { get: (_target, name) => new Slot(String(name)) });

/**
 * A query built and compiled by Kysely once, then run many times with new values. Kysely builds
 * its operation tree and compiles it to SQL on every call; for the ledger's hot statements (the
 * same few shapes on every transfer) that was a third of the CPU time of a request. The query is
 * written with the usual builder, typed as usual: `p.walletId` stands for the value given at run
 * time. Values must have a fixed shape (no optional columns, no `in` lists of varying length).
 * @example
 * const findAgents = prepare((db, p: { walletId: string }) => db.selectFrom('agents').selectAll().where('wallet_id', '=', p.walletId));
 * const { rows } = await findAgents(trx, { walletId });
 */
export function prepare<P extends object, O>(
  build: (db: Kysely<Database>, p: P) => Compilable<O>,
): (trx: Trx, values: P) => Promise<QueryResult<O>> {
  let compiled: { template: CompiledQuery<O>; names: (string | undefined)[] } | undefined;
  return async (trx, values) => {
    if (!compiled) {
      const template = build(trx, slots as P).compile();
      const names = template.parameters.map((parameter) => (parameter instanceof Slot ? parameter.name : undefined));
      compiled = { template, names };
    }
    const { template, names } = compiled;
    const parameters = names.map((name, i) => {
      if (name === undefined) return template.parameters[i];
      const value = (values as Record<string, unknown>)[name];
      if (value === undefined) throw new Error(`prepared query: no value for ${name}`);
      return value;
    });
    return trx.executeQuery<O>({ ...template, parameters });
  };
}

/**
 * A prepared INSERT of one row into `table`, with exactly `columns`; the row given at run time
 * supplies their values. With `{ returning: true }` it answers with the row as stored.
 * @example const insertPosting = prepareInsert('postings', ['id', 'developer_id', 'kind', 'created_at']);
 */
export function prepareInsert<T extends keyof Database & string, K extends keyof Insertable<Database[T]> & string>(
  table: T,
  columns: readonly K[],
  options?: { returning: false },
): (trx: Trx, row: Pick<Insertable<Database[T]>, K>) => Promise<QueryResult<unknown>>;
export function prepareInsert<T extends keyof Database & string, K extends keyof Insertable<Database[T]> & string>(
  table: T,
  columns: readonly K[],
  options: { returning: true },
): (trx: Trx, row: Pick<Insertable<Database[T]>, K>) => Promise<QueryResult<Selectable<Database[T]>>>;
export function prepareInsert<T extends keyof Database & string, K extends keyof Insertable<Database[T]> & string>(
  table: T,
  columns: readonly K[],
  options?: { returning: boolean },
): (trx: Trx, row: Pick<Insertable<Database[T]>, K>) => Promise<QueryResult<unknown>> {
  return prepare((db, p: Pick<Insertable<Database[T]>, K>) => {
    const insert = db.insertInto(table).values(Object.fromEntries(columns.map((c) => [c, p[c]])) as never);
    return options?.returning ? insert.returningAll() : insert;
  });
}
