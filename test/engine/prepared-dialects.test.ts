import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Db } from '../../src/engine/db/database.js';
import { prepare, prepareRows } from '../../src/engine/db/prepared.js';
import { postgresDb, sqliteDb } from '../helpers/two-backends.js';

// Made once, as the engine makes its statements: at module load, for whichever database comes first.
const insertSettings = prepareRows((db, rows: { key: string; value: string }[]) =>
  db.insertInto('settings').values(rows.map((row) => ({ key: row.key, value: row.value }))),
);
const settingByKey = prepare((db, p: { key: string }) =>
  db.selectFrom('settings').select('value').where('key', '=', p.key),
);

async function writeAndRead(db: Db): Promise<(string | undefined)[]> {
  await insertSettings(db, [
    { key: 'prepared.a', value: 'one' },
    { key: 'prepared.b', value: 'two' },
  ]);
  // Inside a transaction too: SQLite runs it on its connection's own statement cache there.
  return db
    .transaction()
    .execute(async (trx) => [
      (await settingByKey(trx, { key: 'prepared.b' })).rows[0]?.value,
      (await settingByKey(trx, { key: 'prepared.none' })).rows[0]?.value,
    ]);
}

describe('prepared statements', () => {
  test('run on a SQLite database and then on a PostgreSQL one in the same process, each in its own SQL', async () => {
    const lite = await sqliteDb();
    const postgres = await postgresDb();
    await sql`CREATE TABLE settings (key text COLLATE "C" PRIMARY KEY, value text NOT NULL)`.execute(postgres);

    expect(await writeAndRead(lite)).toEqual(['two', undefined]);
    expect(await writeAndRead(postgres)).toEqual(['two', undefined]);
    // And back: what PostgreSQL compiled did not replace SQLite's.
    await lite.deleteFrom('settings').where('key', 'like', 'prepared.%').execute();
    expect(await writeAndRead(lite)).toEqual(['two', undefined]);
  });
});
