// The program of off-thread writes (see off-thread.ts `writesOffThread`): its own connection, and
// for each message one exported function of a module run in one write transaction, its answer
// posted back, in the order asked, until told to stop.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from '../database.js';
import { lowerThisThread } from './thread-priority.js';

interface Setup {
  path: string;
  synchronous: 'OFF' | 'NORMAL';
  walPages: number;
  walSizeLimit: number;
}

const setup = workerData as Setup;

// Below the request thread (nice 10), not as low as a read (19): each of these writes holds the
// database's write lock, and every other developer's writes wait for it to commit.
lowerThisThread(10);
const sqlite = new SQLite(setup.path, { fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma(`synchronous = ${setup.synchronous}`);
// Rows go children first (the caller's order): a check per removed row would look for children already gone.
sqlite.pragma('foreign_keys = OFF');
// When the WAL grows past this, this connection copies it back itself after a commit: here, not on
// the request thread (further where a background checkpointer copies it: open.ts WORKER_BACKSTOP_PAGES).
sqlite.pragma(`wal_autocheckpoint = ${setup.walPages}`);
// This connection starts the WAL over after each checkpoint of a reset: it cuts the file back then,
// here, not the request thread's first write after it (open.ts WAL_SIZE_LIMIT).
sqlite.pragma(`journal_size_limit = ${setup.walSizeLimit}`);
sqlite.pragma('cache_size = -32768');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
type Work = (trx: unknown, ...args: unknown[]) => Promise<unknown>;
const modules = new Map<string, Promise<Record<string, Work>>>();
const load = (url: string) => modules.get(url) ?? modules.set(url, import(url)).get(url)!;

async function answer(message: { module: string; name: string; args: unknown[] } | { stop: true }): Promise<void> {
  if ('stop' in message) {
    await db.destroy();
    parentPort!.close();
    return;
  }
  try {
    const work = (await load(message.module))[message.name]!;
    const result = await db.transaction().execute((trx) => work(trx, ...message.args));
    parentPort!.postMessage({ ok: true, result });
  } catch (error) {
    parentPort!.postMessage({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      code: (error as { code?: unknown }).code,
    });
  }
}

// One at a time, in the order asked (messages sent before this line waited in the port).
let last = Promise.resolve();
parentPort!.on('message', (message) => (last = last.then(() => answer(message))));
