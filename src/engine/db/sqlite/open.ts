import SQLite from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteDialectConfig, sql } from 'kysely';
import type { Database, Db } from '../database.js';
import { type Checkpointer, startCheckpointer } from './checkpointer.js';
import { registerConnection } from './direct.js';
import { sqliteError } from './sqlite-errors.js';
import { migrateToLatest } from '../migrations/index.js';
import { builtFile } from '../module-files.js';
import { KEPT_TABLES, type KeptTable, keptMark } from '../prepared.js';

export interface OpenOptions {
  /** A file path, or ':memory:' for a throw-away database. */
  path: string;
  /** Checkpoint the WAL from a worker thread (a server under load); see checkpointer.ts. */
  backgroundCheckpoints?: boolean;
  /** Stamped into a new database's header (user_version), so a file copied over it can be told apart. */
  identity?: number;
  /** A file nothing needs after the process ends (`--memory`): never synced to disk. */
  throwAway?: boolean;
  /**
   * Reads that scale with the data (the audit) run on a worker thread with a connection of their
   * own (default), or, with false, here: for one caller making one request at a time (a scenario
   * run), which no read can hold up, and which should not pay for a thread loading the engine.
   */
  readsOffThread?: boolean;
}

/** A storage fault to inject into every write, for tests where no small disk can be mounted (decisions: Storage). */
export type StorageFault = 'full' | 'readonly' | undefined;

interface DbState {
  path: string;
  sqlite: SQLite.Database;
  checkpointer?: Checkpointer;
  fault: StorageFault;
  identity: number;
  readsOffThread: boolean;
  throwAway: boolean;
  /** Rows of kept reads (see `prepare`'s `keptUntil`), by table, then by SQL and values. */
  kept: Map<KeptTable, Map<string, unknown[]>>;
}

/** Kept reads per table at most; past it they are all forgotten (they are re-read on use). */
const KEPT_LIMIT = 10_000;

/**
 * Forgets a table's kept reads whenever a row of it changes on this connection: a TEMP trigger per
 * table and kind of change (in the connection's temp schema, not in the database file), calling
 * back into this process. Whatever writes the row (an engine call, a reset, a snapshot restore),
 * the next read sees it. Only this connection writes these tables, but for a worker's writes (a reset's
 * chunks, `writesOffThread`), after which they are all forgotten (`forgetKeptReads`).
 */
function watchKeptTables(sqlite: SQLite.Database, state: DbState): void {
  sqlite.function('ledger_kept_table_changed', { deterministic: false }, (table: unknown) => {
    state.kept.get(table as KeptTable)?.clear();
    return null;
  });
  for (const table of KEPT_TABLES) {
    for (const change of ['insert', 'update', 'delete']) {
      sqlite.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS ledger_kept_${table}_${change} AFTER ${change.toUpperCase()} ON ` +
          `main.${table} BEGIN SELECT ledger_kept_table_changed('${table}'); END`,
      );
    }
  }
}

/** Kept rows read while no transaction was open: committed, and still so until their memo is cleared. */
const readCommitted = new WeakSet<unknown[]>();

/**
 * A read statement answered from `memo` by its SQL and values, read again once the memo is cleared.
 * `peek` answers only from the memo, and only rows read outside any transaction: those are
 * committed, where rows read inside one may be its own uncommitted writes (a change or a rollback
 * clears the memo, so they stay true until then).
 */
function keptStatement(
  sqlite: SQLite.Database,
  sql: string,
  statement: SQLite.Statement,
  memo: Map<string, unknown[]>,
) {
  const keyOf = (parameters: readonly unknown[]) => `${sql}\u0000${parameters.map(String).join('\u0000')}`;
  const copy = (rows: unknown[]) => rows.map((row) => ({ ...(row as object) }));
  return {
    reader: true,
    all(parameters: unknown[]) {
      const key = keyOf(parameters);
      let rows = memo.get(key);
      if (!rows) {
        rows = statement.all(parameters);
        if (!sqlite.inTransaction) readCommitted.add(rows);
        if (memo.size >= KEPT_LIMIT) memo.clear();
        memo.set(key, rows);
      }
      return copy(rows);
    },
    peek(parameters: readonly unknown[]) {
      const rows = memo.get(keyOf(parameters));
      return rows && readCommitted.has(rows) ? copy(rows) : undefined;
    },
  };
}

/**
 * Bytes a checkpointed WAL is cut back to: by whichever connection starts the WAL over, in its
 * first COMMIT after (SQLite's journal_size_limit). So every connection that writes has it: the
 * reset's worker, and the checkpointer (whose vacuum writes). Had only the request thread's, its
 * first write after a reset's chunks (the answer) cut back a WAL of 300 MB, and held the request
 * thread for 200 ms (measured at 200,000 transactions).
 */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** An existing database up to this size that does not give space back yet is rebuilt at open so it does. */
const REBUILD_AT_OPEN_BYTES = 64 * 1024 * 1024;

/** INCREMENTAL in sqlite's auto_vacuum pragma. */
const INCREMENTAL = 2;

function incrementalVacuum(sqlite: SQLite.Database): void {
  if (sqlite.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return;
  const pages = sqlite.pragma('page_count', { simple: true }) as number;
  const bytes = pages * (sqlite.pragma('page_size', { simple: true }) as number);
  sqlite.pragma(`auto_vacuum = ${INCREMENTAL}`);
  if (pages === 0 || bytes > REBUILD_AT_OPEN_BYTES) return;
  try {
    sqlite.exec('VACUUM');
  } catch {
    // No room for the rebuild (a full disk): the file keeps its mode; nothing else changes.
  }
}

/**
 * Gives up to `pages` free pages back to the file system (incremental vacuum) on this connection,
 * and answers how many free pages are left. Run it with no transaction open (`exclusive`); each
 * call is one short write. A database with a background checkpointer does it there instead
 * (`reclaimSpaceOffThread`).
 * @example while ((await reclaimSpace(db, 2048)) > 0);
 */
export async function reclaimSpace(db: Db, pages: number): Promise<number> {
  const sqlite = states.get(db)?.sqlite;
  if (!sqlite) return 0;
  // Through the driver's pragma call: a prepared statement would free one page per run.
  sqlite.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
  return sqlite.pragma('freelist_count', { simple: true }) as number;
}

/**
 * Gives free pages back to the file system for about `forMs` ms on the background checkpointer's
 * thread, so the request thread never waits on a step (moving a page reads its parents: a step's
 * cost depends on where the pages lie, not only on how many). Answers the free pages left;
 * undefined with no checkpointer (then use `reclaimSpace`), -1 if the database was busy. Only with
 * no transaction open and no write beside it: run it in `exclusive`.
 */
export async function reclaimSpaceOffThread(db: Db, forMs: number): Promise<number | undefined> {
  return states.get(db)?.checkpointer?.vacuum(forMs);
}

/**
 * Answers whether the WAL is short: all of it in the database file, or under `pages` long, as the
 * background checkpointer found (it checkpoints first, off the request thread, if it is not). True
 * with no checkpointer: the writer then checkpoints itself, and there is nothing to wait for. Work that writes a lot waits for this between its steps:
 * the writer starts the WAL over only once it is all copied, and a WAL that grows to gigabytes is
 * later cut back by the writer in one call that holds the request thread for seconds.
 */
export async function walCaughtUp(db: Db, pages: number): Promise<boolean> {
  const checkpointer = states.get(db)?.checkpointer;
  if (!checkpointer) return true;
  const behind = await checkpointer.catchUp(pages);
  return behind >= 0 && behind < pages;
}

/**
 * Tries once to cut the WAL file back to nothing, once its pages are in the database file (after a
 * reset gave space back): done by the background checkpointer, off the request thread. Resolves
 * whether it did: false while someone still reads the WAL; true with no checkpointer, as
 * `walCaughtUp` is (the writer checkpoints itself and its WAL is cut back to the size limit; a
 * TRUNCATE on the request thread would wait on readers there). Only with no transaction open: run
 * it in `exclusive`.
 */
export async function truncateWal(db: Db): Promise<boolean> {
  const checkpointer = states.get(db)?.checkpointer;
  return checkpointer ? checkpointer.truncate() : true;
}

/**
 * Runs `work` with foreign keys unchecked: for removing rows children first, where each check would
 * look for children that are already gone (a scan where a child column has no index). Only with no
 * transaction open (the pragma is a no-op inside one): run it in `exclusive`.
 */
export async function withoutForeignKeys<T>(db: Db, work: () => Promise<T>): Promise<T> {
  await sql.raw('PRAGMA foreign_keys = OFF').execute(db);
  try {
    return await work();
  } finally {
    await sql.raw('PRAGMA foreign_keys = ON').execute(db);
  }
}

/**
 * WAL pages (64 MiB) after which the writer checkpoints itself, inside the COMMIT that crosses it,
 * while a background checkpointer runs (backstop). Under a steady stream of writes the checkpointer
 * alone never sees the WAL wholly copied at the moment a write begins, so the WAL is never started
 * over: without this the file grew by 1.9 GB in 8 s of transfers one transaction at a time (and to
 * 338 MB with each write first waiting for the checkpointer to catch up), and every read slowed with it.
 */
const BACKSTOP_CHECKPOINT_PAGES = 16_384;

const states = new WeakMap<Db, DbState>();

/**
 * An empty database with every migration applied, made by `npm run build` (scripts/after-build.js)
 * through this very function. A new throw-away database (`sandbox start --memory`, each scenario of
 * `scenario run`) starts as a copy of it: the migrations then find nothing to do, where running them
 * all on an empty file costs several times the copy. Not from the sources (the test runner), whose
 * migrations may be newer than the last build: there every migration runs.
 */
const TEMPLATE = builtFile('engine/db/sqlite/template.db');

/**
 * Loads the database driver, a native module, by opening and closing a throw-away database: one
 * built for another Node than this one fails here with Node's ERR_DLOPEN_FAILED, before anything
 * that needs it has started (`scenario run` checks once, not in each scenario).
 */
export function loadDriver(): void {
  new SQLite(':memory:').close();
}

/**
 * Opens the sandbox database (the only place that knows it is SQLite), applies the
 * pragmas the ledger relies on and runs pending migrations.
 * @example const db = await openDatabase({ path: ':memory:' });
 */
export async function openDatabase({
  path,
  backgroundCheckpoints = false,
  identity,
  throwAway = false,
  readsOffThread = true,
}: OpenOptions): Promise<Db> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  if (throwAway && path !== ':memory:' && TEMPLATE && !existsSync(path) && existsSync(TEMPLATE))
    copyFileSync(TEMPLATE, path);
  const sqlite = new SQLite(path);
  if (path !== ':memory:') {
    // Space freed by a reset goes back to the file system, a chunk at a time (reclaimSpace). Only a
    // database with no tables yet can take the mode; an older small one is rebuilt into it here.
    incrementalVacuum(sqlite);
    sqlite.pragma('journal_mode = WAL');
    // A WAL that grew under a burst of writes is cut back to this size once checkpointed.
    sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  }
  // The database holds webhook secrets: only its owner may read it (decisions: Keys and secrets).
  if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) restrict(file);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(throwAway ? 'synchronous = OFF' : 'synchronous = NORMAL');
  // The sandbox commits concurrent writes together, each in a savepoint; their undo journals stay in memory.
  sqlite.pragma('temp_store = MEMORY');
  const state: DbState = {
    path,
    sqlite,
    fault: undefined,
    identity: 0,
    readsOffThread: readsOffThread && path !== ':memory:',
    throwAway,
    kept: new Map(),
  };
  const statements = withStatementCache(sqlite, state);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  registerConnection(db, {
    prepare: (text) => (statements as SqliteDatabase).prepare(text) as never,
    inTransaction: () => sqlite.inTransaction,
  });
  const results = await migrateToLatest(db).catch(async (error: unknown) => {
    await db.destroy();
    throw error;
  });
  // Migrations that ran (every one, on a new file; the rebuilds of 0016 on an older one) leave their
  // pages in the WAL, nearly 2 MB on a new file: copied into the database and cut back here, before
  // any reader, so a sandbox on a nearly full disk does not start with its room taken.
  if (path !== ':memory:' && results.length > 0) {
    // The rebuilds leave free pages behind (about 1 MB on a new file): given back first.
    if (sqlite.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) sqlite.pragma('incremental_vacuum');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  }
  watchKeptTables(sqlite, state);
  state.identity = sqlite.pragma('user_version', { simple: true }) as number;
  if (state.identity === 0 && identity) {
    sqlite.pragma(`user_version = ${identity >>> 0}`);
    state.identity = identity >>> 0;
  }
  if (backgroundCheckpoints && path !== ':memory:') {
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    state.checkpointer = startCheckpointer(path, {
      throwAway,
      walSizeLimit: WAL_SIZE_LIMIT,
      onEnd: () => {
        // The thread failed: the writer's own backstop checkpoints carry on (speed lost, not correctness).
        state.checkpointer = undefined;
      },
    });
  }
  states.set(db, state);
  return db;
}

/** Stops the background checkpointer (if any) and closes the database. */
export async function closeDatabase(db: Db): Promise<void> {
  await states.get(db)?.checkpointer?.stop();
  await db.destroy();
}

/** The file the database was opened from, or ':memory:'. */
export function databasePath(db: Db): string {
  const state = states.get(db);
  if (!state) throw new Error('not a database opened by openDatabase');
  return state.path;
}

/** Whether reads that scale with the data go to a worker thread (see `OpenOptions.readsOffThread`; never for ':memory:'). */
export function readsOffThread(db: Db): boolean {
  const state = states.get(db);
  if (!state) throw new Error('not a database opened by openDatabase');
  return state.readsOffThread;
}

/**
 * WAL pages past which a worker that writes checkpoints after its commit (16 MiB), before the
 * writer's backstop here would. The checkpoint runs inside the commit of the job that crossed the
 * mark (90–250 ms at 200,000 transactions, every fourth to ninth reset chunk), which its caller
 * waits out in `exclusive`; so where a background checkpointer copies the WAL, the caller waits for
 * it instead between jobs, holding nothing (`walCaughtUp`, at 4,096 pages), and the worker's mark
 * is twice as far (WORKER_BACKSTOP_PAGES): it checkpoints only when the checkpointer fell behind.
 */
const WORKER_CHECKPOINT_PAGES = 4_096;
const WORKER_BACKSTOP_PAGES = 8_192;

/** How a worker thread opens its own connection that writes to this database (see `writesOffThread`). */
export interface WriterSetup {
  path: string;
  synchronous: 'OFF' | 'NORMAL';
  walPages: number;
  walSizeLimit: number;
}

/** The setup for a worker's connection that writes; undefined where work that scales with the data stays here (see `readsOffThread`). */
export function writerSetup(db: Db): WriterSetup | undefined {
  const state = states.get(db);
  if (!state?.readsOffThread) return undefined;
  return {
    path: state.path,
    synchronous: state.throwAway ? 'OFF' : 'NORMAL',
    walPages: state.checkpointer ? WORKER_BACKSTOP_PAGES : WORKER_CHECKPOINT_PAGES,
    walSizeLimit: WAL_SIZE_LIMIT,
  };
}

/** Forgets every kept read: another connection (a worker's) changed rows, which this one's triggers do not see. */
export function forgetKeptReads(db: Db): void {
  for (const memo of states.get(db)?.kept.values() ?? []) memo.clear();
}

/** The number stamped in the database header at creation (0 for a database from before stamps). */
export function databaseIdentity(db: Db): number {
  return states.get(db)?.identity ?? 0;
}

/**
 * Makes every data-changing statement fail as a full disk or a read-only database would, until
 * called again with `undefined`. The fault-injection seam for tests of a full disk (decisions: Storage).
 */
export function injectStorageFault(db: Db, fault: StorageFault): void {
  const state = states.get(db);
  if (state) state.fault = fault;
}

const WRITES = /^\s*(insert|update|delete|replace)\b/i;
const ROLLBACK = /^\s*rollback\b/i;
const KEPT_MARKS = KEPT_TABLES.map((table) => [keptMark(table), table] as const);
const keptTable = (sql: string): KeptTable | undefined =>
  sql.startsWith('/* kept') ? KEPT_MARKS.find(([mark]) => sql.startsWith(mark))?.[1] : undefined;

/**
 * Kysely prepares every query afresh; the ledger runs the same few dozen statements over and
 * over, so prepared statements are kept by SQL text. Kysely runs one query at a time on this
 * connection and never iterates a statement, so reusing one is safe.
 */
function withStatementCache(sqlite: SQLite.Database, state: DbState): SqliteDialectConfig['database'] {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      // A rollback may undo a change to a kept table whose trigger has already run: forget them all.
      if (ROLLBACK.test(sql)) for (const memo of state.kept.values()) memo.clear();
      let statement = cache.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (cache.size >= 500) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      if (state.fault && WRITES.test(sql)) return faulty(statement, state.fault);
      const table = keptTable(sql);
      if (table) {
        const memos = state.kept.get(table) ?? new Map<string, unknown[]>();
        state.kept.set(table, memos);
        return keptStatement(sqlite, sql, statement, memos);
      }
      return statement;
    },
    close: () => sqlite.close(),
  } as unknown as SqliteDialectConfig['database'];
}

/** Mode 0600 where this process may set it (a file it does not own keeps its mode). */
function restrict(file: string): void {
  try {
    chmodSync(file, 0o600);
  } catch {
    // missing, or not ours
  }
}

/** A statement that fails as SQLite does on a full disk or a read-only file. */
function faulty(statement: SQLite.Statement, fault: Exclude<StorageFault, undefined>): SQLite.Statement {
  const fail = () => {
    throw fault === 'full'
      ? sqliteError('SQLITE_FULL', 'database or disk is full')
      : sqliteError('SQLITE_READONLY', 'attempt to write a readonly database');
  };
  return { reader: statement.reader, run: fail, all: fail, get: fail, iterate: fail } as unknown as SQLite.Statement;
}
