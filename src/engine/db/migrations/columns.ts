import { type ColumnDefinitionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The column types of this schema in `db`'s dialect, for a migration written once for both backends:
 * integers (kobo among them) are `bigint` on PostgreSQL, text compares byte by byte on both (SQLite's
 * own way; `COLLATE "C"` on PostgreSQL), bytes are `blob` or `bytea`.
 * @example
 * const t = columnTypes(db);
 * await db.schema.createTable('notes').addColumn('seq', t.integer, seqKey(db)).addColumn('note', t.text, (c) => c.notNull()).execute();
 */
export function columnTypes(db: Kysely<any>): {
  integer: RawBuilder<unknown>;
  text: RawBuilder<unknown>;
  bytes: RawBuilder<unknown>;
} {
  const postgres = isPostgres(db);
  return {
    integer: sql.raw(postgres ? 'bigint' : 'integer'),
    text: sql.raw(postgres ? 'text COLLATE "C"' : 'text'),
    bytes: sql.raw(postgres ? 'bytea' : 'blob'),
  };
}

/**
 * A `seq` primary key (with `columnTypes(db).integer`) that numbers rows an insert gives no seq, and
 * never hands out a number twice on SQLite; on PostgreSQL an insert may still give its own.
 */
export const seqKey =
  (db: Kysely<any>) =>
  (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    isPostgres(db) ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
