import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * The string at `path` in a JSON text, in the SQL of `db`'s backend: null where the path leads
 * nowhere or the JSON is SQL NULL. SQLite has `json_extract(json, '$.a.b')`, PostgreSQL
 * `json::jsonb #>> '{a,b}'`; nothing both read. Keys are plain names (no dots, commas or braces),
 * fixed by the caller, never user text.
 * @example trx.selectFrom('events').where(jsonString(trx, sql.ref('payload'), ['data', 'wallet_id']), '=', walletId)
 */
export function jsonString(
  db: Kysely<any>,
  json: Expression<unknown>,
  path: readonly string[],
): RawBuilder<string | null> {
  if (path.some((key) => !/^[A-Za-z0-9_]+$/.test(key)))
    throw new Error(`jsonString: not a plain key in ${path.join('.')}`);
  if (isPostgres(db)) return sql<string | null>`(CAST(${json} AS jsonb) #>> ${sql.lit(`{${path.join(',')}}`)})`;
  return sql<string | null>`json_extract(${json}, ${sql.lit(`$.${path.join('.')}`)})`;
}
