import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import type { Db } from '../../src/engine/db/database.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { createTestDatabase } from './postgres.js';

/** A migrated in-memory SQLite database, closed when the test ends. */
export async function sqliteDb(): Promise<Db> {
  const db = await openDatabase({ path: ':memory:' });
  onTestFinished(() => db.destroy());
  return db;
}

/**
 * Kysely over a pg.Pool on a fresh, empty PostgreSQL database (the test creates the tables it
 * needs), dropped when the test ends. Its pool reads int8 and numeric as JS numbers, as the
 * PostgreSQL storage's pool does: counts, sums and seqs come back as SQLite gives them.
 */
export async function postgresDb(): Promise<Db> {
  const database = await createTestDatabase();
  const asNumber = (text: string) => Number(text);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
        ? asNumber
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2, types }) }),
  }) as Db;
  onTestFinished(async () => {
    await db.destroy();
    await database.drop();
  });
  return db;
}
