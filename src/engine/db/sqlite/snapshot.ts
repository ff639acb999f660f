import SQLite from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, openSync, rmSync } from 'node:fs';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Database, Db } from '../database.js';
import { migrationOrder, migrationProvider } from '../migrations/index.js';
import { readFileInWorker } from './off-thread.js';
import type { ReplaceOptions, SnapshotFormat, StorageJob as ReadJob } from '../storage.js';
import { closeDatabase, databasePath, openDatabase, readsOffThread } from './open.js';
import { LedgerError } from '../../errors.js';
import { damagedSnapshot, SNAPSHOT_META, snapshotInvalid, syncFile } from '../snapshot-files.js';
import { sqliteSchema, writeSqliteTextSnapshot } from './sqlite-schema.js';
import { fileLines, loadTextSnapshot, sniffSnapshot } from '../text-snapshot.js';
import { startSqliteWorker } from './worker.js';

export type { SnapshotFormat };

/**
 * Snapshots of a whole sandbox database (decisions: Snapshots): what is SQLite about them lives here.
 * A binary snapshot file is an ordinary SQLite database in rollback-journal mode, made by `VACUUM
 * INTO`, with one extra row in `settings` (SNAPSHOT_META) saying when it was taken. A text snapshot
 * (text-snapshot.ts) is written from such a copy and loaded into a fresh database made by the
 * migrations, which then restores as a binary one does.
 */

export interface SnapshotMeta {
  /** On the clock of the sandbox's owner when it was saved. */
  saved_at: string;
}

/** The worker that copies a file database from its own connection, so requests go on meanwhile. */
const COPY_WORKER = `
const db = new SQLite(workerData.path);
try {
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.target);
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String(error && error.message), code: error && error.code });
} finally {
  db.close();
}
`;

/**
 * Writes a consistent copy of the database to `target` (which must not exist) with `meta` in it,
 * mode 0600, synced to disk. A file database is copied by `VACUUM INTO` on a connection of its own
 * in a worker thread: one read transaction, so the copy is one committed state however many writes
 * run meanwhile. An in-memory database has no second connection: call this between two write
 * batches (GroupCommit.exclusive), where `VACUUM INTO` on the one connection sees only committed data.
 * @example await copyDatabase(db, '/tmp/.base.db.tmp-1', { saved_at: now });
 */
export async function copyDatabase(db: Db, target: string, meta: SnapshotMeta): Promise<void> {
  const path = databasePath(db);
  // Made empty first with mode 0600 (VACUUM INTO takes an empty file): the copy holds keys' hashes
  // and webhook secrets, and is never readable by others, whatever the host process's umask.
  closeSync(openSync(target, 'wx', 0o600));
  try {
    if (path === ':memory:') await sql`VACUUM INTO ${target}`.execute(db);
    else await copyInWorker(path, target);
    const copy = new SQLite(target);
    try {
      copy.pragma('journal_mode = DELETE');
      copy
        .prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)')
        .run(SNAPSHOT_META, JSON.stringify(meta));
    } finally {
      copy.close();
    }
    chmodSync(target, 0o600);
    syncFile(target);
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  }
}

function copyInWorker(path: string, target: string): Promise<void> {
  const worker = startSqliteWorker(COPY_WORKER, { path, target });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: { ok: boolean; message?: string; code?: string }) => {
      if (result.ok) resolve();
      else reject(Object.assign(new Error(result.message), { code: result.code }));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the snapshot worker stopped (${code})`)));
  });
}

export interface SnapshotFileInfo {
  format: SnapshotFormat;
  /** A binary snapshot's; a text snapshot holds no save time. */
  meta: SnapshotMeta | undefined;
  /** The migrations a binary snapshot's schema has had. */
  migrations: string[];
  /** A text snapshot's schema: the last migration its rows fit. */
  schema?: string;
}

/** What a snapshot file says about itself; throws a LedgerError on `field` when it is not a ledger snapshot. */
export function readSnapshotInfo(file: string, field: string): SnapshotFileInfo {
  const sniffed = sniffSnapshot(file, field);
  if (sniffed?.format === 'json')
    return { format: 'json', meta: undefined, migrations: [], schema: sniffed.header.schema };
  let handle: SQLite.Database | undefined;
  try {
    handle = new SQLite(file, { readonly: true, fileMustExist: true });
    const tables = new Set(
      (handle.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    if (!tables.has('developers') || !tables.has('settings') || !tables.has('kysely_migration'))
      throw notASnapshot(field);
    const row = handle.prepare('SELECT value FROM settings WHERE key = ?').get(SNAPSHOT_META) as
      { value: string } | undefined;
    const migrations = (
      handle.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]
    ).map((m) => m.name);
    return { format: 'sqlite', meta: row ? (JSON.parse(row.value) as SnapshotMeta) : undefined, migrations };
  } catch (error) {
    if (error instanceof LedgerError) throw error;
    throw isDamaged(error) && !/not a database/.test((error as Error).message)
      ? damagedSnapshot(field, error)
      : notASnapshot(field);
  } finally {
    handle?.close();
  }
}

const notASnapshot = (field: string) => snapshotInvalid(field, 'is not a ledger sandbox snapshot');

/**
 * Whether `error` says the database file is damaged (truncated, overwritten) or not a database:
 * of a snapshot file, that is the file's fault, not the server's.
 */
export const isDamaged = (error: unknown): boolean =>
  /^SQLITE_(CORRUPT|NOTADB)/.test(String((error as { code?: unknown }).code ?? ''));

/**
 * Runs a read (`job`, the audit) over the snapshot file at `file`, read-only, without opening it as
 * the sandbox's database: where the sandbox `db` reads off the request thread, on a worker thread,
 * so checking a large snapshot never holds a request up; elsewhere (an in-memory sandbox, one
 * caller at a time) here. A damaged file fails with its SQLite code (see `isDamaged`).
 * @example const report = await readSnapshot(sandbox.db, '/tmp/base.db', { module: 'engine/audit/audit.service', name: 'audit', run: audit });
 */
export async function readSnapshot<A extends unknown[], R>(
  db: Db,
  file: string,
  job: ReadJob<A, R>,
  ...args: A
): Promise<R> {
  if (readsOffThread(db)) return readFileInWorker(file, job, ...args);
  const handle = new SQLite(file, { readonly: true, fileMustExist: true });
  const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  try {
    return await reader.transaction().execute((trx) => job.run(trx, ...args));
  } finally {
    await reader.destroy();
  }
}

/**
 * The snapshot at `file` as a database with this version's schema: a binary file itself when its
 * schema is current (it is only read), else a database at `work`: a binary one copied and migrated,
 * a text one loaded (see loadText). The file is never changed: it may be a fixture in a repository.
 * Throws on `field` for a file that is not a snapshot, or one made by a newer version (with
 * migrations this one does not know).
 */
export async function prepareSnapshot(
  file: string,
  work: string,
  field: string,
): Promise<{ path: string; migrated: boolean }> {
  const info = readSnapshotInfo(file, field);
  const current = Object.keys(await migrationProvider.getMigrations()).sort(migrationOrder);
  if (info.format === 'json') {
    await loadText(file, work, info.schema!, current, field);
    // Rows from a text file are from elsewhere: replaceContents checks their foreign keys again.
    return { path: work, migrated: true };
  }
  if (info.migrations.join() === current.join()) return { path: file, migrated: false };
  copyFileSync(file, work);
  await migrate(work, field);
  return { path: work, migrated: true };
}

/** Brings the database at `work` to this version's schema; refused on `field` when it cannot be. */
async function migrate(work: string, field: string): Promise<void> {
  try {
    const copy = await openDatabase({ path: work });
    await closeDatabase(copy);
  } catch (error) {
    rmSync(work, { force: true });
    throw snapshotInvalid(
      field,
      'cannot be migrated to this version',
      `was made by a newer version of ledger, or its schema cannot be migrated (${(error as Error).message})`,
    );
  } finally {
    for (const suffix of ['-wal', '-shm']) rmSync(`${work}${suffix}`, { force: true });
  }
}

/**
 * Loads the text snapshot at `file` into a new database at `work`, made by the migrations up to
 * the schema its header names, in one transaction; then migrates it to this version's schema when
 * it is older. A schema this version does not know (a newer ledger's) is refused.
 */
async function loadText(file: string, work: string, schema: string, current: string[], field: string): Promise<void> {
  if (!current.includes(schema)) {
    throw snapshotInvalid(
      field,
      'cannot be migrated to this version',
      `line 1: its schema ${schema} is not one this version of ledger knows (it knows up to ${current.at(-1)}): it was made by a newer version`,
    );
  }
  closeSync(openSync(work, 'wx', 0o600));
  const handle = new SQLite(work);
  // A work file, removed after the restore: nothing to keep from a crash.
  handle.pragma('synchronous = OFF');
  handle.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider, nameComparator: migrationOrder }).migrateTo(
      schema,
    );
    if (error) throw error;
    await db.transaction().execute((trx) => loadTextSnapshot(trx, sqliteSchema, fileLines(file), field));
  } finally {
    await db.destroy();
  }
  if (schema !== current.at(-1)) await migrate(work, field);
}

/**
 * Writes the binary snapshot at `copy` (made by copyDatabase) as a text snapshot at `target`, which
 * must not exist: mode 0600, synced to disk. Off the request thread where `db` reads off it.
 * @example await writeTextCopy(sandbox.db, '/tmp/.base.jsonl.tmp-1', '/tmp/.base.jsonl.tmp-1.text');
 */
export async function writeTextCopy(db: Db, copy: string, target: string): Promise<void> {
  closeSync(openSync(target, 'wx', 0o600));
  try {
    await readSnapshot(
      db,
      copy,
      { module: 'engine/db/sqlite/sqlite-schema', name: 'writeSqliteTextSnapshot', run: writeSqliteTextSnapshot },
      target,
      [SNAPSHOT_META],
    );
    syncFile(target);
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  }
}

/**
 * Replaces every table's rows with those of the prepared snapshot at `file`, in one transaction:
 * it commits whole or not at all. The database file stays the same file (its identity, locks and
 * WAL with it), so this works for `:memory:` too. Call it between two write batches
 * (GroupCommit.exclusive): ATTACH and DETACH cannot run inside a transaction, and holding the one
 * connection throughout keeps every reader out until it is done.
 * @example await replaceContents(db, '/tmp/base.work', { before, after, checkForeignKeys: true });
 */
export async function replaceContents(db: Db, file: string, options: ReplaceOptions): Promise<void> {
  await db.connection().execute(async (conn) => {
    // Off for the copy (rows arrive in table order, not in dependency order); checked before COMMIT.
    await sql`PRAGMA foreign_keys = OFF`.execute(conn);
    await sql`ATTACH DATABASE ${file} AS snapshot`.execute(conn);
    try {
      await conn.transaction().execute(async (trx) => {
        await options.before(trx);
        for (const table of await tablesOf(trx)) {
          const name = sql.id(table.name);
          await sql`DELETE FROM main.${name}`.execute(trx);
          // With the same columns in the same order, `SELECT *` lets SQLite copy the rows and their
          // indexes as they are (its transfer optimization: about three times faster).
          const columns = table.same ? sql`*` : sql.join(table.columns.map((c) => sql.id(c)));
          await sql`INSERT INTO main.${name} ${table.same ? sql`` : sql`(${columns})`} SELECT ${columns} FROM snapshot.${name}`.execute(
            trx,
          );
        }
        // AUTOINCREMENT counters go back too, so rows made after a restore number as they did after the save.
        await sql`DELETE FROM main.sqlite_sequence`.execute(trx);
        await sql`INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM snapshot.sqlite_sequence`.execute(
          trx,
        );
        await sql`DELETE FROM main.settings WHERE key = ${SNAPSHOT_META}`.execute(trx);
        await options.after(trx);
        const broken = options.checkForeignKeys
          ? (await sql<{ table: string }>`PRAGMA main.foreign_key_check`.execute(trx)).rows
          : [];
        if (broken.length > 0) {
          throw snapshotInvalid(
            'snapshot',
            'is inconsistent',
            `its rows do not hold together (${broken[0]!.table} refers to a missing row)`,
          );
        }
      });
    } finally {
      await sql`DETACH DATABASE snapshot`.execute(conn);
      await sql`PRAGMA foreign_keys = ON`.execute(conn);
    }
  });
}

/**
 * Every table of the live schema but SQLite's and the migrator's own, with its columns, and whether
 * the snapshot's table has exactly those columns in that order.
 */
async function tablesOf(trx: Kysely<Database>): Promise<{ name: string; columns: string[]; same: boolean }[]> {
  const { rows } = await sql<{
    name: string;
  }>`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name`.execute(
    trx,
  );
  const columnsOf = async (name: string, schema: string) =>
    (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${name}, ${schema})`.execute(trx)).rows.map(
      (c) => c.name,
    );
  const tables = [];
  for (const { name } of rows) {
    const columns = await columnsOf(name, 'main');
    tables.push({ name, columns, same: columns.join() === (await columnsOf(name, 'snapshot')).join() });
  }
  return tables;
}
