import { type Kysely, sql } from 'kysely';
import {
  type ColumnKind,
  parentsFirst,
  type SnapshotSchema,
  type TableInfo,
  writeTextSnapshot,
} from '../text-snapshot.js';

/** SQLite's column affinity rules (its "Determination Of Column Affinity"), for a declared type. */
function kindOf(declared: string): ColumnKind {
  const type = declared.toUpperCase();
  if (type.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(type)) return 'text';
  if (type === '' || type.includes('BLOB')) return 'blob';
  return 'real';
}

/**
 * What a text snapshot needs to know of an SQLite database (text-snapshot.ts): its tables but
 * SQLite's and the migrator's own, read from the schema itself, so a table a migration adds is in
 * every snapshot from then on.
 */
export const sqliteSchema: SnapshotSchema = {
  async tables(db) {
    const { rows } = await sql<{
      name: string;
    }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(
      db,
    );
    const tables = new Map<string, TableInfo & { parents: string[] }>();
    for (const { name } of rows) {
      const columns = (
        await sql<{
          name: string;
          type: string;
          pk: number;
        }>`SELECT name, type, pk FROM pragma_table_info(${name})`.execute(db)
      ).rows;
      const parents = (
        await sql<{ table: string }>`SELECT "table" FROM pragma_foreign_key_list(${name})`.execute(db)
      ).rows.map((f) => f.table);
      const key = columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      tables.set(name, {
        name,
        columns: columns.map((c) => ({ name: c.name, kind: kindOf(c.type) })),
        key: key.length > 0 ? key : ['rowid'],
        parents,
      });
    }
    return parentsFirst(tables);
  },
  async sequences(db) {
    const { rows } = await sql<{
      name: string;
      seq: number;
    }>`SELECT name, seq FROM sqlite_sequence ORDER BY name`.execute(db);
    const ahead = [];
    for (const { name, seq } of rows) {
      // The AUTOINCREMENT key is the rowid.
      const { rows: top } = await sql<{
        top: number;
      }>`SELECT coalesce(max(rowid), 0) AS top FROM ${sql.table(name)}`.execute(db);
      if (Number(seq) > Number(top[0]!.top)) ahead.push({ table: name, value: Number(seq) });
    }
    return ahead;
  },
  async setSequences(db, sequences) {
    // Loading the rows has set every other counter to its table's largest key.
    for (const { table, value } of sequences) {
      const { numAffectedRows } = await sql`UPDATE sqlite_sequence SET seq = ${value} WHERE name = ${table}`.execute(
        db,
      );
      if (!numAffectedRows) await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table}, ${value})`.execute(db);
    }
  },
};

/**
 * Writes the SQLite database `trx` reads as a text snapshot to `target`: a job for a read worker
 * (see off-thread.ts), so that a large sandbox is written without holding requests up.
 * @example
 * const job = { module: 'engine/db/sqlite/sqlite-schema', name: 'writeSqliteTextSnapshot', run: writeSqliteTextSnapshot };
 * await readSnapshot(db, '/tmp/.base.jsonl.tmp-1', job, '/tmp/base.jsonl', ['snapshot']);
 */
export const writeSqliteTextSnapshot = (trx: Kysely<any>, target: string, omitSettings: string[]): Promise<number> =>
  writeTextSnapshot(trx, sqliteSchema, target, omitSettings);
