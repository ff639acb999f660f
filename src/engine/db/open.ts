import SQLite from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import type { Database, Db } from './database.js';
import { type Checkpointer, startCheckpointer } from './checkpointer.js';
import { migrationProvider } from './migrations.js';

export interface OpenOptions {
  /** A file path, or ':memory:' for a throw-away database. */
  path: string;
  /** Checkpoint the WAL from a worker thread (a server under load); see checkpointer.ts. */
  backgroundCheckpoints?: boolean;
}

/** WAL pages after which the writer checkpoints itself, when a background checkpointer runs (backstop). */
const BACKSTOP_CHECKPOINT_PAGES = 16_384;

const checkpointers = new WeakMap<Db, Checkpointer>();

/**
 * Opens the sandbox database (the only place that knows it is SQLite), applies the
 * pragmas the ledger relies on and runs pending migrations.
 * @example const db = await openDatabase({ path: ':memory:' });
 */
export async function openDatabase({ path, backgroundCheckpoints = false }: OpenOptions): Promise<Db> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // The sandbox commits concurrent writes together, each in a savepoint; their undo journals stay in memory.
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${String(error)}`);
  }
  if (backgroundCheckpoints && path !== ':memory:') {
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    checkpointers.set(db, startCheckpointer(path));
  }
  return db;
}

/** Stops the background checkpointer (if any) and closes the database. */
export async function closeDatabase(db: Db): Promise<void> {
  await checkpointers.get(db)?.stop();
  await db.destroy();
}

/**
 * Kysely prepares every query afresh; the ledger runs the same few dozen statements over and
 * over, so prepared statements are kept by SQL text. Kysely runs one query at a time on this
 * connection and never iterates a statement, so reusing one is safe.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDialectConfig['database'] {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (cache.size >= 500) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
    close: () => sqlite.close(),
  } as unknown as SqliteDialectConfig['database'];
}

/** True when the error is SQLite refusing a UNIQUE constraint. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}
