import { type Kysely, type RawBuilder, sql } from 'kysely';

/** A table's new definition, the SELECT (from the old tables, all still there) that fills it, and its indexes. */
export interface Rebuild {
  table: string;
  create: RawBuilder<unknown>;
  copy: RawBuilder<unknown>;
  indexes?: RawBuilder<unknown>[];
}

/**
 * Rebuilds tables in one transaction, as SQLite's ALTER TABLE procedure does: each new table is
 * filled from the old ones (which all stay until every copy is made, so one copy can join another's
 * old table), then the old ones go and the new ones take their names, indexes and AUTOINCREMENT
 * counters (so no seq is ever handed out twice). Foreign keys are off meanwhile (a dropped table's
 * rows would count as removed) and checked on the rebuilt tables before COMMIT; a row that loses
 * its parent or any failure leaves the database as it was.
 */
export async function rebuildTables(db: Kysely<unknown>, rebuilds: Rebuild[]): Promise<void> {
  const next = (table: string) => sql.table(`${table}_0016`);
  const { rows: pragma } = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    for (const { table, create, copy } of rebuilds) {
      await sql`CREATE TABLE ${next(table)} (${create})`.execute(db);
      await sql`INSERT INTO ${next(table)} ${copy}`.execute(db);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
      const { rows: copied } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${next(table)}`.execute(db);
      if (rows[0]!.n !== copied[0]!.n)
        throw new Error(`${table}: ${copied[0]!.n} of ${rows[0]!.n} rows could be carried over`);
      await sql`DELETE FROM sqlite_sequence WHERE name = ${`${table}_0016`}`.execute(db);
      await sql`INSERT INTO sqlite_sequence (name, seq) SELECT ${`${table}_0016`},
        max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ${table}), 0), coalesce((SELECT max(seq) FROM ${next(table)}), 0))`.execute(
        db,
      );
    }
    for (const { table } of [...rebuilds].reverse()) await sql`DROP TABLE ${sql.table(table)}`.execute(db);
    for (const { table, indexes } of rebuilds) {
      await sql`ALTER TABLE ${next(table)} RENAME TO ${sql.table(table)}`.execute(db);
      for (const index of indexes ?? []) await index.execute(db);
    }
    for (const { table } of rebuilds) {
      const { rows } = await sql<{
        table: string;
        parent: string;
      }>`SELECT "table", parent FROM pragma_foreign_key_check(${table})`.execute(db);
      if (rows.length > 0) throw new Error(`${table}: a row refers to a missing ${rows[0]!.parent} row`);
    }
    await sql`COMMIT`.execute(db);
  } catch (error) {
    await sql`ROLLBACK`.execute(db);
    throw error;
  } finally {
    if (pragma[0]?.foreign_keys) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
