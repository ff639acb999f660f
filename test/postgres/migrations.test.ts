import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { migrateToLatest, migrationOrder, migrationProvider } from '../../src/engine/db/migrations/index.js';
import { postgresKysely } from '../helpers/postgres-kysely.js';

const names = async () => Object.keys(await migrationProvider.getMigrations()).sort(migrationOrder);

describe('migrations on PostgreSQL', () => {
  test('a fresh database gets every migration once, and a second run finds nothing to do', async () => {
    const [db] = await postgresKysely();
    const ran = await migrateToLatest(db!);
    expect(ran.map((r) => [r.migrationName, r.status])).toEqual((await names()).map((name) => [name, 'Success']));
    expect(await migrateToLatest(db!)).toEqual([]);
  });

  test('two servers starting at once on one database migrate it once, and both start', async () => {
    const [a, b] = await postgresKysely(2);
    const [first, second] = await Promise.all([migrateToLatest(a!), migrateToLatest(b!)]);
    // One of them ran every migration under the migrator's lock; the other found them done.
    expect([first.length, second.length].sort()).toEqual([0, (await names()).length]);
    const { rows: recorded } = await sql<{
      name: string;
    }>`SELECT name FROM kysely_migration ORDER BY name COLLATE "C"`.execute(a!);
    expect(recorded.map((r) => r.name)).toEqual(await names());
    const { rows: tables } = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'developers'`.execute(b!);
    expect(tables).toEqual([{ n: 1 }]);
  });

  test('a migration that fails is named, and leaves nothing of itself behind', async () => {
    const [db] = await postgresKysely();
    await sql`CREATE TABLE settings (key text PRIMARY KEY)`.execute(db!);
    await expect(migrateToLatest(db!)).rejects.toThrow(
      /^database migration 0001_core failed: error: relation "settings" already exists$/,
    );
    const { rows } = await sql<{ found: string | null }>`SELECT to_regclass('developers')::text AS found`.execute(db!);
    expect(rows).toEqual([{ found: null }]);
  });
});
