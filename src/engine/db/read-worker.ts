// The program of one off-thread read (see off-thread.ts): its own read-only connection, one read
// transaction, one exported function of one module, the answer posted back, then the thread ends.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from './database.js';

interface Job {
  path: string;
  module: string;
  name: string;
  args: unknown[];
}

const job = workerData as Job;

/**
 * This thread runs at the lowest CPU priority (nice 19; the request thread keeps its own): on a
 * busy machine a read that scales with the data (an audit of a million rows, 40 s of CPU) would
 * otherwise take turns on the cores with the request thread and delay its answers. Linux names a
 * thread by its own id, which /proc/thread-self gives; elsewhere the thread keeps its priority.
 */
function yieldTheCpu(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
  } catch {
    // not Linux, or not allowed: the same read, at the same priority as the server
  }
}

yieldTheCpu();
const sqlite = new SQLite(job.path, { readonly: true, fileMustExist: true });
// A read never waits: in WAL mode readers and the writer do not block each other.
sqlite.pragma('busy_timeout = 5000');
// Large scans go through this connection's own page cache (32 MiB), not the server's.
sqlite.pragma('cache_size = -32768');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
try {
  const work = (await import(job.module))[job.name] as (trx: unknown, ...args: unknown[]) => Promise<unknown>;
  const result = await db.transaction().execute((trx) => work(trx, ...job.args));
  parentPort!.postMessage({ ok: true, result });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error), code: (error as { code?: unknown }).code });
} finally {
  await db.destroy();
}
