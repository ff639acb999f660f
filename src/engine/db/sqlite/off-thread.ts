import { Worker } from 'node:worker_threads';
import type { Transaction } from 'kysely';
import type { Database, Db } from '../database.js';
import type { BulkWriter, StorageJob } from '../storage.js';
import { built, moduleUrl } from '../module-files.js';
import { databasePath, forgetKeptReads, readsOffThread, withoutForeignKeys, writerSetup } from './open.js';

/**
 * Work to run off the request thread (the seam's StorageJob). A worker always loads the unbundled files of dist/, which
 * every build ships beside the bundle: `module` is a path, not an `import.meta.url`.
 */
export type ReadJob<A extends unknown[], R> = StorageJob<A, R>;

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

/** A worker's answer: a result, or an error with its message and code. */
type Answer<R> = { ok: true; result: R } | { ok: false; message: string; code?: string };

function settle<R>(message: Answer<R>, resolve: (result: R) => void, reject: (error: Error) => void): void {
  if (message.ok) resolve(message.result);
  else reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
}

/**
 * Runs `job` on a worker thread with a read-only connection of its own to the file at `path`, in
 * one read transaction (a snapshot file checked before it is loaded: see snapshot.ts).
 * @example const report = await readFileInWorker('/tmp/base.db', { module: 'engine/audit/audit.service', name: 'audit', run: audit });
 */
export function readFileInWorker<A extends unknown[], R>(path: string, job: ReadJob<A, R>, ...args: A): Promise<R> {
  return inWorker<R>(path, job.module, job.name, args);
}

function inWorker<R>(path: string, module: string, name: string, args: unknown[]): Promise<R> {
  const script = built(moduleUrl('engine/db/sqlite/read-worker'));
  return new Promise<R>((resolve, reject) => {
    const worker = new Worker(new URL(script), {
      execArgv: workerExecArgv(),
      workerData: { path, module: built(moduleUrl(module)), name, args },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let answered = false;
    worker.once('message', (message: Answer<R>) => {
      answered = true;
      settle(message, resolve, reject);
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

/** Writes run off the request thread, one at a time, until `close` (see `writesOffThread`). */
export type OffThreadWriter = BulkWriter;

/**
 * A worker thread with its own connection that writes, for work that writes a lot in many short
 * transactions (a reset's chunks): the request thread only waits for each answer, so a delete that
 * reads pages from disk, a COMMIT, or a checkpoint when the WAL grows long never holds it up. The
 * caller keeps the other writes away meanwhile (run each job in `exclusive`): this connection and
 * the server's must not wait on each other's lock, and the server's waits would block its thread.
 * A job's rows are not seen by the server's kept reads (open.ts), which are forgotten after each.
 * Where work stays on the request thread (an in-memory database, one caller at a time), a job runs
 * there, with foreign keys unchecked too.
 * @example
 * const writer = writesOffThread(db);
 * const job = { module: 'engine/reset/reset.service', name: 'resetChunkJob', run: resetChunkJob };
 * await sandbox.exclusive(() => writer.run(job, developerId, progress, 500));
 * await writer.close();
 */
export function writesOffThread(db: Db): OffThreadWriter {
  const setup = writerSetup(db);
  if (!setup) {
    return {
      offThread: false,
      run: (job, ...args) => withoutForeignKeys(db, () => db.transaction().execute((trx) => job.run(trx, ...args))),
      close: async () => {},
    };
  }
  const script = built(moduleUrl('engine/db/sqlite/write-worker'));
  const worker = new Worker(new URL(script), {
    execArgv: workerExecArgv(),
    workerData: setup,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const waiting: { resolve: (result: unknown) => void; reject: (error: Error) => void }[] = [];
  let ended: Error | undefined;
  worker.on('message', (message: Answer<unknown>) => {
    forgetKeptReads(db);
    const next = waiting.shift();
    if (next) settle(message, next.resolve, next.reject);
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      ended ??= new Error(`the write worker ended (exit ${code})`);
      for (const next of waiting.splice(0)) next.reject(ended);
      resolve();
    }),
  );
  worker.once('error', (error) => (ended = error));
  return {
    offThread: true,
    run: (job, ...args) =>
      new Promise((resolve, reject) => {
        if (ended) return reject(ended);
        waiting.push({ resolve: resolve as (result: unknown) => void, reject });
        worker.postMessage({ module: built(moduleUrl(job.module)), name: job.name, args });
      }),
    async close() {
      if (!ended) worker.postMessage({ stop: true });
      await exited;
    },
  };
}
