import pg from 'pg';
import { describe, expect, onTestFinished, test } from 'vitest';
import { postgresTypes } from '../../src/engine/db/postgres/types.js';
import { createTestDatabase } from '../helpers/postgres.js';

async function pool(types?: pg.CustomTypesConfig): Promise<pg.Pool> {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 1, ...(types ? { types } : {}) });
  onTestFinished(async () => {
    await pool.end();
    await db.drop();
  });
  return pool;
}

const one = async (pool: pg.Pool, query: string): Promise<unknown> => (await pool.query(query)).rows[0].v;

describe('integers read from PostgreSQL', () => {
  test('bigint, count(*) and sum of bigints read as JS numbers, exactly up to 2^53 − 1 either way', async () => {
    const db = await pool(postgresTypes);
    expect(await one(db, 'SELECT 9007199254740991::bigint AS v')).toBe(Number.MAX_SAFE_INTEGER);
    expect(await one(db, 'SELECT (-9007199254740991)::bigint AS v')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(await one(db, 'SELECT 0::bigint AS v')).toBe(0);
    await db.query('CREATE TABLE kobo (amount bigint NOT NULL)');
    await db.query('INSERT INTO kobo VALUES (4503599627370495), (4503599627370496), (-5)');
    // sum(bigint) is numeric on PostgreSQL, count(*) bigint: both numbers, as SQLite gives them.
    const { rows } = await db.query(
      'SELECT sum(amount) AS total, sum(amount) FILTER (WHERE amount > 0) AS positive, count(*) AS n FROM kobo',
    );
    expect(rows[0]).toEqual({ total: Number.MAX_SAFE_INTEGER - 5, positive: Number.MAX_SAFE_INTEGER, n: 3 });
    expect(await one(db, 'SELECT sum(amount) AS v FROM kobo WHERE amount > 4503599627370496')).toBeNull();
  });

  test('an integer past 2^53 − 1, or a fraction, fails the query instead of reading as a rounded number', async () => {
    const db = await pool(postgresTypes);
    const refused = /PostgreSQL returned (.+) where an integer is read/;
    await expect(one(db, 'SELECT 9007199254740992::bigint AS v')).rejects.toThrow(refused);
    await expect(one(db, 'SELECT (-9223372036854775808)::bigint AS v')).rejects.toThrow(refused);
    await expect(
      one(db, 'SELECT sum(x) AS v FROM (VALUES (9007199254740991::bigint), (1::bigint)) AS t (x)'),
    ).rejects.toThrow('PostgreSQL returned 9007199254740992 where');
    await expect(one(db, 'SELECT 2.5::numeric AS v')).rejects.toThrow('PostgreSQL returned 2.5 where');
    // The connection is still good after a refused read.
    expect(await one(db, 'SELECT 7::bigint AS v')).toBe(7);
  });

  test('other types read as pg reads them, and a pool without these types is left as it was', async () => {
    const db = await pool(postgresTypes);
    const { rows } = await db.query(
      `SELECT 5::int AS i, 'x'::text AS t, '\\x0102'::bytea AS b, true AS flag, 1.5::float8 AS f`,
    );
    expect(rows[0]).toEqual({ i: 5, t: 'x', b: Buffer.from([1, 2]), flag: true, f: 1.5 });
    const plain = await pool();
    expect(await one(plain, 'SELECT 9007199254740993::bigint AS v')).toBe('9007199254740993');
  });
});
