import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import { postgresTypes } from '../../src/engine/db/postgres/types.js';
import { createTestDatabase } from './postgres.js';

/**
 * Kysely on a fresh database of the shared test server, reading integers as the engine does
 * (postgres/types.ts); `count` pools of their own on it, as that many servers would have. Closed and
 * dropped after the test.
 * @example const [db] = await postgresKysely();
 */
export async function postgresKysely(count = 1): Promise<Kysely<any>[]> {
  const database = await createTestDatabase();
  const dbs = Array.from(
    { length: count },
    () =>
      new Kysely<any>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({ connectionString: database.url, types: postgresTypes, max: 2 }),
        }),
      }),
  );
  onTestFinished(async () => {
    await Promise.all(dbs.map((db) => db.destroy()));
    await database.drop();
  });
  return dbs;
}
