import { closeSync, openSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import type { Database, Db } from '../database.js';
import { migrationOrder, migrationProvider } from '../migrations/index.js';
import type { ReplaceOptions, SnapshotFileInfo, StorageJob } from '../storage.js';
import { SNAPSHOT_META, snapshotInvalid, syncFile } from '../snapshot-files.js';
import { fileLines, loadTextSnapshot, sniffSnapshot, writeTextSnapshot } from '../text-snapshot.js';
import { connect, type PostgresSettings } from './connect.js';
import { handedOut, identitySequences, postgresSchema, setHandedOut } from './postgres-schema.js';

/**
 * Snapshots of a PostgreSQL sandbox (decisions: Snapshots) are text snapshots (text-snapshot.ts). A
 * restore loads the file into a staging schema of the same database (made by the migrations), audits it
 * there, and copies every table into the live schema in one transaction: other servers on the database
 * keep serving the old rows until it commits.
 */

/**
 * Staging schemas are named so. A restore drops its own whatever happens; a process killed mid-restore leaves one
 * behind (`DROP SCHEMA … CASCADE` removes it).
 */
export const STAGING_PREFIX = 'ledger_restore_';

/** What a snapshot file says about itself; SNAPSHOT_INVALID on `field` when it is not one a PostgreSQL sandbox loads. */
export function readSnapshotInfo(file: string, field: string): SnapshotFileInfo & { schema?: string } {
  const sniffed = sniffSnapshot(file, field);
  if (!sniffed) throw snapshotInvalid(field, 'is not a ledger sandbox snapshot');
  return sniffed.format === 'json'
    ? { format: 'json', meta: undefined, schema: sniffed.header.schema }
    : { format: 'sqlite', meta: undefined };
}

/** Writes one committed state of `db` as a text snapshot at `target` (which must not exist), mode 0600, synced. */
export async function copyAsText(db: Db, target: string): Promise<void> {
  closeSync(openSync(target, 'wx', 0o600));
  try {
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => writeTextSnapshot(trx, postgresSchema, target, [SNAPSHOT_META]));
    syncFile(target);
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  }
}

/** A staging schema of the database at `url`, as Kysely with it first on the search path. */
function staging(url: string, settings: PostgresSettings, schema: string): Kysely<Database> {
  return connect(url, settings, { schema, max: 1 }).db;
}

/**
 * Loads the text snapshot at `file` into a new staging schema of the database `db` serves, made by
 * the migrations. Returns the staging schema's name (the prepared snapshot's "path").
 * SNAPSHOT_INVALID on `field` for a SQLite file, a file that is not a snapshot, or one whose schema
 * is not this version's (a newer version's, or an older one: SQLite migrates those).
 */
export async function prepareSnapshot(
  db: Db,
  url: string,
  settings: PostgresSettings,
  file: string,
  field: string,
): Promise<{ path: string; migrated: boolean }> {
  const info = readSnapshotInfo(file, field);
  if (info.format === 'sqlite') {
    throw snapshotInvalid(
      field,
      'is a SQLite snapshot',
      'is a SQLite snapshot: a PostgreSQL sandbox loads text snapshots (save it from a SQLite sandbox with --format json)',
    );
  }
  const current = Object.keys(await migrationProvider.getMigrations()).sort(migrationOrder);
  if (!current.includes(info.schema!)) {
    throw snapshotInvalid(
      field,
      'cannot be migrated to this version',
      `line 1: its schema ${info.schema} is not one this version of ledger knows (it knows up to ${current.at(-1)}): it was made by a newer version`,
    );
  }
  if (info.schema !== current.at(-1)) {
    // PostgreSQL's first migration makes today's schema whole (docs/storage.md), so an older schema cannot be rebuilt here to load the rows into.
    throw snapshotInvalid(
      field,
      'was saved by an older version',
      `line 1: its schema is ${info.schema}, older than this version's ${current.at(-1)}: ` +
        `restore it into a SQLite sandbox of this version and save it again (ledger sandbox snapshot save ` +
        `--format json), then restore that here`,
    );
  }
  const schema = `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`;
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(db);
  const stage = staging(url, settings, schema);
  try {
    // Its own migration tables: Kysely finds tables in any schema, and would take the live schema's for these.
    const migrator = () =>
      new Migrator({
        db: stage,
        provider: migrationProvider,
        nameComparator: migrationOrder,
        migrationTableSchema: schema,
      });
    const { error } = await migrator().migrateToLatest();
    if (error) throw error;
    await stage.transaction().execute((trx) => loadTextSnapshot(trx, postgresSchema, fileLines(file), field));
  } catch (error) {
    await dropStaging(db, schema);
    throw error;
  } finally {
    await stage.destroy();
  }
  return { path: schema, migrated: true };
}

/** Runs a read (the audit) over a prepared snapshot's staging schema, in one transaction. */
export async function readSnapshot<A extends unknown[], R>(
  url: string,
  settings: PostgresSettings,
  schema: string,
  job: StorageJob<A, R>,
  ...args: A
): Promise<R> {
  const stage = staging(url, settings, schema);
  try {
    return await stage.transaction().execute((trx) => job.run(trx, ...args));
  } finally {
    await stage.destroy();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export const dropStaging = (db: Db, schema: string) =>
  sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db).then(() => undefined);

/**
 * Replaces every table's rows with the staging schema's, and every sequence with its, in one
 * transaction (children emptied first, parents filled first, so every foreign key holds at each
 * statement), then drops the staging schema whatever happened.
 */
export async function replaceContents(db: Db, schema: string, options: ReplaceOptions): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      const live = (await sql<{ name: string }>`SELECT current_schema() AS name`.execute(trx)).rows[0]!.name;
      await options.before(trx);
      const tables = await postgresSchema.tables(trx);
      for (const table of [...tables].reverse()) await sql`DELETE FROM ${sql.id(live, table.name)}`.execute(trx);
      for (const table of tables) {
        const columns = sql.join(table.columns.map((c) => sql.id(c.name)));
        await sql`INSERT INTO ${sql.id(live, table.name)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM ${sql.id(schema, table.name)}`.execute(
          trx,
        );
      }
      for (const { table, column, sequence } of await identitySequences(trx)) {
        const { rows } = await sql<{
          staged: string;
        }>`SELECT pg_get_serial_sequence(${`${quoted(schema)}.${quoted(table)}`}, ${column}) AS staged`.execute(trx);
        await setHandedOut(trx, sequence, await handedOut(trx, rows[0]!.staged));
      }
      await options.after(trx);
    });
  } finally {
    await dropStaging(db, schema);
  }
}
