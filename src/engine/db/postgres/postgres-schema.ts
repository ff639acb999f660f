import { type Kysely, sql } from 'kysely';
import { type ColumnKind, parentsFirst, type SnapshotSchema, type TableInfo } from '../text-snapshot.js';

/** A PostgreSQL column type as a text snapshot's kind: integers of any width, bytes, real numbers; the rest is text. */
function kindOf(type: string): ColumnKind {
  if (type === 'bigint' || type === 'integer' || type === 'smallint') return 'integer';
  if (type === 'bytea') return 'blob';
  if (type === 'double precision' || type === 'real' || type === 'numeric') return 'real';
  return 'text';
}

/** The tables of the connection's schema (the first on its search path) but the migrator's own. */
async function tableNames(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely\\_%'`.execute(
    db,
  );
  return rows.map((r) => r.name);
}

/** Each table's identity column's sequence (every seq the database numbers), by table. */
async function identitySequences(db: Kysely<any>): Promise<{ table: string; column: string; sequence: string }[]> {
  const { rows } = await sql<{ table: string; column: string; sequence: string }>`
    SELECT table_name AS "table", column_name AS "column", pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
    FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES' AND table_name NOT LIKE 'kysely\\_%'
    ORDER BY table_name`.execute(db);
  return rows;
}

/** The highest number a sequence has handed out (0 when none): what SQLite's sqlite_sequence holds. */
async function handedOut(db: Kysely<any>, sequence: string): Promise<number> {
  const { rows } = await sql<{
    last_value: number;
    is_called: boolean;
  }>`SELECT last_value, is_called FROM ${sql.raw(sequence)}`.execute(db);
  const { last_value, is_called } = rows[0]!;
  return is_called ? Number(last_value) : Number(last_value) - 1;
}

/**
 * What a text snapshot needs to know of a PostgreSQL database (text-snapshot.ts), read from its
 * catalogue in the connection's schema. An identity column's sequence stands for SQLite's
 * AUTOINCREMENT counter: a snapshot saved on either backend loads on the other, and saves again the same.
 */
export const postgresSchema: SnapshotSchema = {
  async tables(db) {
    const tables = new Map<string, TableInfo & { parents: string[] }>();
    for (const name of await tableNames(db)) {
      const { rows: columns } = await sql<{ name: string; type: string }>`
        SELECT column_name AS name, data_type AS type FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${name} ORDER BY ordinal_position`.execute(db);
      const { rows: key } = await sql<{ name: string }>`
        SELECT a.attname AS name FROM pg_index i
        JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
        WHERE i.indrelid = to_regclass(quote_ident(${name})) AND i.indisprimary ORDER BY k.n`.execute(db);
      const { rows: parents } = await sql<{ table: string }>`
        SELECT confrelid::regclass::text AS "table" FROM pg_constraint
        WHERE conrelid = to_regclass(quote_ident(${name})) AND contype = 'f'`.execute(db);
      tables.set(name, {
        name,
        columns: columns.map((c) => ({ name: c.name, kind: kindOf(c.type) })),
        key: key.map((k) => k.name),
        parents: parents.map((p) => p.table.replace(/^"|"$/g, '')),
      });
    }
    return parentsFirst(tables);
  },
  async sequences(db) {
    const ahead = [];
    for (const { table, column, sequence } of await identitySequences(db)) {
      const value = await handedOut(db, sequence);
      const { rows } = await sql<{
        top: number;
      }>`SELECT coalesce(max(${sql.ref(column)}), 0) AS top FROM ${sql.table(table)}`.execute(db);
      if (value > Number(rows[0]!.top)) ahead.push({ table, value });
    }
    return ahead;
  },
  async setSequences(db, sequences) {
    // Rows loaded with their own numbers leave a sequence where it was: every one is set here, to
    // its table's largest key or the snapshot's counter where that is ahead.
    const given = new Map(sequences.map((s) => [s.table, s.value]));
    for (const { table, column, sequence } of await identitySequences(db)) {
      const { rows } = await sql<{
        top: number;
      }>`SELECT coalesce(max(${sql.ref(column)}), 0) AS top FROM ${sql.table(table)}`.execute(db);
      await setHandedOut(db, sequence, Math.max(Number(rows[0]!.top), given.get(table) ?? 0));
    }
  },
};

/** Makes `sequence` hand out `value + 1` next (1 when `value` is 0). */
export async function setHandedOut(db: Kysely<any>, sequence: string, value: number): Promise<void> {
  if (value > 0) await sql`SELECT setval(${sequence}::regclass, ${value}, true)`.execute(db);
  else await sql`SELECT setval(${sequence}::regclass, 1, false)`.execute(db);
}

export { handedOut, identitySequences };
