import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { jsonString } from '../../src/engine/db/json.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { createTestDatabase, readInt8AsBigInt } from '../helpers/postgres.js';

beforeAll(readInt8AsBigInt);

async function sqlite(): Promise<Kysely<any>> {
  const db = await openDatabase({ path: ':memory:' });
  onTestFinished(() => db.destroy());
  return db;
}

async function postgres(): Promise<Kysely<any>> {
  const database = await createTestDatabase();
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }),
  });
  onTestFinished(async () => {
    await db.destroy();
    await database.drop();
  });
  return db;
}

const payloads = [
  '{"data":{"wallet_id":"w-1","amount":500}}',
  '{"data":{"amount":500}}',
  '{"data":null}',
  '{"event":"x"}',
  '',
  null,
];

/** What jsonString reads at data.wallet_id of each payload, on one database. */
async function walletIds(db: Kysely<any>): Promise<(string | null)[]> {
  const read = [];
  for (const payload of payloads) {
    const json = jsonString(db, sql`nullif(CAST(${payload} AS TEXT), '')`, ['data', 'wallet_id']);
    const { rows } = await sql<{ found: string | null }>`SELECT ${json} AS found`.execute(db);
    read.push(rows[0]!.found);
  }
  return read;
}

describe('jsonString', () => {
  test('reads the same string at a path on SQLite and PostgreSQL, and null where there is none', async () => {
    const expected = ['w-1', null, null, null, null, null];
    expect(await walletIds(await sqlite())).toEqual(expected);
    expect(await walletIds(await postgres())).toEqual(expected);
  });

  test('takes plain keys only: the path is written into the SQL', async () => {
    const db = await sqlite();
    expect(() => jsonString(db, sql`'{}'`, ["a'}"])).toThrow(/not a plain key/);
  });
});
