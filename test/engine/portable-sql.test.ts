import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import type { EngineEnv } from '../../src/engine/env.js';
import { storedId, storedIdSql } from '../../src/engine/events/stored.js';
import { seededIds } from '../../src/engine/ids.js';

let db: Db;
let env: EngineEnv;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  env = { clock: new ManualClock(), ids: seededIds('portable') };
});
afterEach(() => db.destroy());

describe('developer numbers', () => {
  it('count up from the developers a database has, also after the counter row is lost (an older snapshot)', async () => {
    const seqs = async () => (await db.selectFrom('developers').select('seq').orderBy('seq').execute()).map((row) => row.seq);
    for (const name of ['A', 'B']) await db.transaction().execute((trx) => createDeveloper(trx, env, name));
    expect(await seqs()).toEqual([1, 2]);
    await db.deleteFrom('settings').where('key', '=', 'developer_seq').execute();
    await db.transaction().execute((trx) => createDeveloper(trx, env, 'C'));
    await db.transaction().execute((trx) => createDeveloper(trx, env, 'D'));
    expect(await seqs()).toEqual([1, 2, 3, 4]);
  });
});

describe('storedIdSql', () => {
  it('stores in SQL what storedId stores in code: canonical UUIDs as bytes, any other id as its text', async () => {
    const ids = ['0f0e0d0c-0b0a-4908-8706-050403020100', '0F0E0D0C-0B0A-4908-8706-050403020100', 'evt_not-a-uuid', '0f0e0d0c-0b0a-4908-8706-05040302010g', '0f0e0d0c00b0a-4908-8706-050403020100'];
    for (const id of ids) {
      const { rows } = await sql<{ stored: unknown }>`SELECT ${storedIdSql('id')} AS stored FROM (SELECT ${id} AS id)`.execute(db);
      expect(rows[0]!.stored).toEqual(storedId(id));
    }
  });
});
