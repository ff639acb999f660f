import { Worker } from 'node:worker_threads';
import type { Transaction } from 'kysely';
import type { Database, Db } from './database.js';
import { built, moduleUrl } from './module-files.js';
import { databasePath, readsOffThread } from './open.js';

/** A read to run off the request thread: an exported function of a module, given a read transaction. */
export interface ReadJob<A extends unknown[], R> {
  /**
   * The module's path under src/ (dist/ when built), without its extension: `engine/audit/audit.service`.
   * Not its `import.meta.url`: inside a bundle (dist/scenario.bundle.cjs) that names the bundle. A
   * worker always loads the unbundled files of dist/, which every build ships beside the bundle.
   */
  module: string;
  /** The name it is exported under. */
  name: string;
  /** The function itself, for a database that has no file to open a second connection to. */
  run: (trx: Transaction<Database>, ...args: A) => Promise<R>;
}

/** Heap a read may use (its rows are read in chunks; this is a bound, not an estimate). */
const WORKER_HEAP_MB = 192;

/**
 * The host's Node flags, less `--input-type`: a worker inherits them, and a worker that runs a file
 * under `--input-type=module` (a script run with `node --input-type=module -e`) fails to start.
 */
function workerExecArgv(): string[] {
  const flags: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const flag = process.execArgv[i]!;
    if (flag === '--input-type') i++;
    else if (!flag.startsWith('--input-type=')) flags.push(flag);
  }
  return flags;
}

const queues = new WeakMap<Db, Promise<unknown>>();

/**
 * Runs a read off the request thread, as the checkpointer does its checkpoints: a worker thread
 * with its own read-only connection and one read transaction, so a read that scales with the data
 * (an audit of a million transactions) never holds up a request, and its memory is given back when
 * the thread ends. Reads of one database run one after another. An in-memory database cannot be
 * opened twice, and a database opened for one caller at a time (`readsOffThread: false`, a scenario
 * run) has no request to hold up: there the read runs here, in one read transaction.
 * @example const report = await offThread(db, { module: 'engine/audit/audit.service', name: 'audit', run: audit }, developerId);
 */
export function offThread<A extends unknown[], R>(db: Db, job: ReadJob<A, R>, ...args: A): Promise<R> {
  const path = databasePath(db);
  if (!readsOffThread(db)) return db.transaction().execute((trx) => job.run(trx, ...args));
  const previous = queues.get(db) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => inWorker<R>(path, job.module, job.name, args));
  queues.set(db, next);
  return next;
}

function inWorker<R>(path: string, module: string, name: string, args: unknown[]): Promise<R> {
  const script = built(moduleUrl('engine/db/read-worker'));
  return new Promise<R>((resolve, reject) => {
    const worker = new Worker(new URL(script), { execArgv: workerExecArgv(), workerData: { path, module: built(moduleUrl(module)), name, args }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let answered = false;
    worker.once('message', (message: { ok: true; result: R } | { ok: false; message: string; code?: string }) => {
      answered = true;
      if (message.ok) resolve(message.result);
      else reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the read worker ended (exit ${code}) without an answer`));
    });
  });
}
