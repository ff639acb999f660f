import { existsSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import {
  checkServer,
  createTestDatabase,
  freeLoopbackPort,
  readInt8AsBigInt,
  startPostgres,
  type TestDatabase,
} from '../helpers/postgres.js';

beforeAll(readInt8AsBigInt);

async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  onTestFinished(db.drop);
  return db;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client(url);
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

describe('the PostgreSQL test server', () => {
  test('a test gets a database of its own on the shared server, reached with pg', async () => {
    const db = await database();
    const client = await connect(db.url);
    const { rows } = await client.query<{ database: string; version: number }>(
      "SELECT current_database() AS database, current_setting('server_version_num')::int AS version",
    );
    expect(rows[0]!.database).toBe(db.name);
    expect(rows[0]!.version).toBeGreaterThanOrEqual(130000);
  });

  test("one test's tables are not another's, and a dropped database is gone", async () => {
    const [first, second] = await Promise.all([database(), database()]);
    const a = await connect(first.url);
    await a.query('CREATE TABLE wallets (id text PRIMARY KEY)');
    await a.query("INSERT INTO wallets VALUES ('w1')");
    await a.end();
    const b = await connect(second.url);
    expect((await b.query("SELECT to_regclass('wallets') AS found")).rows[0].found).toBeNull();

    await first.drop();
    const gone = new pg.Client(first.url);
    await expect(gone.connect()).rejects.toMatchObject({ code: '3D000' });
  });

  test('bigint kobo round-trips exactly, never through a float', async () => {
    const client = await connect((await database()).url);
    const edges = [2n ** 53n + 1n, 9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n];
    // What a Number would have read: 2^53 + 1 is not a double.
    expect(BigInt(Number(edges[0]))).not.toBe(edges[0]);
    await client.query('CREATE TABLE balances (id int PRIMARY KEY, kobo bigint NOT NULL)');
    for (const [id, kobo] of edges.entries()) await client.query('INSERT INTO balances VALUES ($1, $2)', [id, kobo]);
    const { rows } = await client.query('SELECT kobo FROM balances ORDER BY id');
    expect(rows.map((row) => row.kobo)).toEqual(edges);
    // SUM of bigint is numeric (it may pass the bigint range, as here), which pg reads as exact text.
    const sum = await client.query('SELECT sum(kobo) AS total FROM balances WHERE id < 2');
    expect(sum.rows[0].total).toBe('9232379236109516800');
    expect(BigInt(sum.rows[0].total)).toBe(edges[0]! + edges[1]!);
  });

  test('SELECT … FOR UPDATE SKIP LOCKED hands each connection a different row', async () => {
    const db = await database();
    const [a, b] = [await connect(db.url), await connect(db.url)];
    await a.query("CREATE TABLE due (id int PRIMARY KEY, state text NOT NULL DEFAULT 'waiting')");
    await a.query('INSERT INTO due (id) VALUES (1), (2), (3)');
    const lease = 'SELECT id FROM due ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED';
    await a.query('BEGIN');
    await b.query('BEGIN');
    expect((await a.query(lease)).rows).toEqual([{ id: 1 }]);
    expect((await b.query(lease)).rows).toEqual([{ id: 2 }]);
    await expect(b.query('SELECT id FROM due WHERE id = 1 FOR UPDATE NOWAIT')).rejects.toMatchObject({ code: '55P03' });
    await b.query('ROLLBACK');
    await a.query('COMMIT');
  });

  test('an advisory lock is held by one connection at a time', async () => {
    const db = await database();
    const [a, b] = [await connect(db.url), await connect(db.url)];
    const take = 'SELECT pg_try_advisory_lock(4242) AS taken';
    expect((await a.query(take)).rows[0].taken).toBe(true);
    expect((await b.query(take)).rows[0].taken).toBe(false);
    await a.query('SELECT pg_advisory_unlock(4242)');
    expect((await b.query(take)).rows[0].taken).toBe(true);
    expect((await a.query(take)).rows[0].taken).toBe(false);
  });

  test("Kysely's PostgresDialect runs a query on a pg.Pool", async () => {
    const db = new Kysely<Record<string, never>>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: (await database()).url, max: 2 }) }),
    });
    onTestFinished(() => db.destroy());
    const { rows } = await sql<{
      two: number;
      big: bigint;
    }>`SELECT 1 + 1 AS two, 9223372036854775807::bigint AS big`.execute(db);
    expect(rows).toEqual([{ two: 2, big: 9_223_372_036_854_775_807n }]);
  });

  test('startPostgres() starts a server of its own, and stop() leaves no data folder behind', async () => {
    const server = await startPostgres();
    const client = new pg.Client(server.url);
    await client.connect();
    const folder = (await client.query('SHOW data_directory')).rows[0].data_directory as string;
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect((await client.query('SHOW fsync')).rows[0].fsync).toBe('off');
    await client.end();
    expect(existsSync(folder)).toBe(true);
    await server.stop();
    expect(existsSync(folder)).toBe(false);
  });

  test('a LEDGER_TEST_DATABASE_URL that cannot be reached fails with what to do, without its password', async () => {
    const port = await freeLoopbackPort();
    const error = await checkServer(`postgres://ci:s3cret@127.0.0.1:${port}/postgres`).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain(`LEDGER_TEST_DATABASE_URL=postgres://ci:***@127.0.0.1:${port}/postgres cannot be used`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('s3cret');
  });
});
