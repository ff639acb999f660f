// The program of one off-thread read (see off-thread.ts): its own read-only connection, one read
// transaction, one exported function of one module, the answer posted back, then the thread ends.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from '../database.js';
import { lowerThisThread } from './thread-priority.js';

interface Job {
  path: string;
  module: string;
  name: string;
  args: unknown[];
}

const job = workerData as Job;

// The lowest CPU priority (nice 19): the request thread keeps its own (see thread-priority.ts).
lowerThisThread(19);
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
  parentPort!.postMessage({
    ok: false,
    message: error instanceof Error ? error.message : String(error),
    code: (error as { code?: unknown }).code,
  });
} finally {
  await db.destroy();
}
