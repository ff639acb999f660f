import { CompiledQuery, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/engine/db/database.js';
import { runDirect } from '../../src/engine/db/sqlite/direct.js';
import { injectStorageFault, openDatabase } from '../../src/engine/db/sqlite/open.js';

// Prepared statements inside a transaction run straight on the connection the transaction holds
// (db/direct.ts), not through Kysely's executor: the same rows and counts, the same errors, and
// nothing outside a transaction.

let db: Db;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  await sql`CREATE TEMP TABLE direct_t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)`.execute(db);
});
afterEach(async () => {
  await db.destroy();
});

const insert = 'INSERT INTO direct_t (name) VALUES (?)';
const select = 'SELECT id, name FROM direct_t ORDER BY id';

describe('statements run on the connection inside a transaction', () => {
  it('answer as Kysely does: rows, rows changed and the new rowid', async () => {
    await db.transaction().execute(async (trx) => {
      const viaKysely = await trx.executeQuery(CompiledQuery.raw(insert, ['a']));
      const direct = await runDirect(trx, insert, ['b']);
      expect(direct).toEqual({ numAffectedRows: 1n, insertId: 2n, rows: [] });
      expect(viaKysely).toEqual({ numAffectedRows: 1n, insertId: 1n, rows: [] });
      expect(await runDirect(trx, select, [])).toEqual(await trx.executeQuery(CompiledQuery.raw(select, [])));
      expect((await runDirect<{ name: string }>(trx, select, []))!.rows.map((r) => r.name)).toEqual(['a', 'b']);
    });
  });

  it('only inside a transaction of a database opened here: elsewhere the caller goes through Kysely', async () => {
    expect(runDirect(db, select, [])).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      expect(runDirect(trx, select, [])).toBeInstanceOf(Promise);
    });
  });

  it('reject as SQLite refuses, and the transaction rolls back with everything it wrote', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await runDirect(trx, insert, ['same']);
        await runDirect(trx, insert, ['same']);
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect((await db.executeQuery(CompiledQuery.raw(select, []))).rows).toEqual([]);
  });

  it('go through the connection statement cache, so an injected storage fault still refuses writes', async () => {
    injectStorageFault(db, 'full');
    await expect(db.transaction().execute((trx) => runDirect(trx, insert, ['x'])!)).rejects.toMatchObject({
      code: 'SQLITE_FULL',
    });
    injectStorageFault(db, undefined);
    await db.transaction().execute((trx) => runDirect(trx, insert, ['x'])!);
    expect((await db.executeQuery(CompiledQuery.raw(select, []))).rows).toEqual([{ id: 1, name: 'x' }]);
  });
});
