import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import type { Db } from '../../src/engine/db/database.js';
import { prepareInsertSeqs } from '../../src/engine/db/prepared.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { createTestDatabase, readInt8AsBigInt } from '../helpers/postgres.js';

beforeAll(readInt8AsBigInt);

// A table of its own, so the test owns every number in it. A prepared statement is compiled for
// the first database it runs on, so each backend gets its own.
const insertNamed = () => prepareInsertSeqs('probe' as never, ['name'] as never) as unknown as (trx: Db, rows: { name: string }[]) => Promise<number[]>;

/** Inserts three rows, then two after numbers were skipped: what each insert answered, and each row's seq as stored. */
async function numbered(db: Db): Promise<{ answered: number[][]; stored: Record<string, number> }> {
  const insert = insertNamed();
  const answered = [await insert(db, [{ name: 'a' }, { name: 'b' }, { name: 'c' }])];
  await sql`DELETE FROM probe`.execute(db);
  answered.push(await insert(db, [{ name: 'd' }, { name: 'e' }]));
  answered.push(await db.transaction().execute((trx) => insert(trx, [{ name: 'f' }, { name: 'g' }, { name: 'h' }])));
  const { rows } = await sql<{ name: string; seq: number | bigint }>`SELECT name, seq FROM probe`.execute(db);
  return { answered, stored: Object.fromEntries(rows.map((row) => [row.name, Number(row.seq)])) };
}

describe('prepareInsertSeqs', () => {
  test('answers each row its own seq, in the order given, on SQLite and PostgreSQL alike', async () => {
    const lite = await openDatabase({ path: ':memory:' });
    onTestFinished(() => lite.destroy());
    await sql`CREATE TABLE probe (seq integer PRIMARY KEY AUTOINCREMENT, name text NOT NULL)`.execute(lite);

    const database = await createTestDatabase();
    const postgres = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) }) as Db;
    onTestFinished(async () => {
      await postgres.destroy();
      await database.drop();
    });
    // A sequence that hands out numbers 10 apart: the rows of one insert are not consecutive there.
    await sql`CREATE TABLE probe (seq bigint GENERATED ALWAYS AS IDENTITY (INCREMENT BY 10) PRIMARY KEY, name text NOT NULL)`.execute(postgres);

    const onSqlite = await numbered(lite);
    expect(onSqlite.answered).toEqual([[1, 2, 3], [4, 5], [6, 7, 8]]);
    const onPostgres = await numbered(postgres);
    expect(onPostgres.answered).toEqual([[1, 11, 21], [31, 41], [51, 61, 71]]);
    for (const { answered, stored } of [onSqlite, onPostgres]) {
      expect(answered.slice(1).flat()).toEqual(['d', 'e', 'f', 'g', 'h'].map((name) => stored[name]));
    }
  });
});
