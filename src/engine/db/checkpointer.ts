import { startSqliteWorker } from './worker.js';

/** How often the background connection copies the WAL back into the database file. */
const INTERVAL_MS = 20;

/**
 * The worker's whole program. It has its own connection and never waits for a lock
 * (`busy_timeout = 0`): a PASSIVE checkpoint copies what no reader still needs and leaves the
 * rest for the next round, so the writer is never held up.
 */
const WORKER_SOURCE = `
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 0');
db.pragma('synchronous = ' + workerData.synchronous);
// A checkpoint copies pages through its own buffer; this connection needs no page cache of note.
db.pragma('cache_size = 16');
// Asked to, it also tries once to cut the WAL file back to nothing, once it is all copied and no
// one reads it (TRUNCATE, which does not wait either), and answers whether it did.
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'truncate') {
    let done = false;
    try { done = db.pragma('wal_checkpoint(TRUNCATE)')[0].busy === 0; } catch {}
    parentPort.postMessage(done);
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /**
   * Tries once to cut the WAL file back to nothing (after a reset); resolves whether it did. Only
   * while the writer has no transaction open: a write transaction that has read cannot write once
   * the WAL was reset under it (SQLITE_BUSY, which waits for nothing).
   */
  truncate(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Checkpoints a WAL database from a worker thread. A checkpoint copies pages into the database
 * file and syncs it to disk (several fsyncs); done on the connection that writes, it stalls every
 * request behind it for milliseconds. Here the writer only appends to the WAL. The writer keeps
 * a high automatic checkpoint as a backstop, for a WAL that this thread could not keep short.
 * @example const checkpointer = startCheckpointer('/tmp/ledger.db'); ... await checkpointer.stop();
 */
export function startCheckpointer(path: string, options: { throwAway?: boolean } = {}): Checkpointer {
  const worker = startSqliteWorker(
    WORKER_SOURCE,
    { path, intervalMs: INTERVAL_MS, synchronous: options.throwAway ? 'OFF' : 'NORMAL' },
    { resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } },
  );
  // A failed checkpointer costs speed, not correctness: the writer's own checkpoints take over.
  worker.on('error', () => {});
  worker.unref();
  let running = true;
  const exited = new Promise((resolve) => worker.once('exit', resolve)).finally(() => (running = false));
  let truncating: Promise<boolean> | undefined;
  return {
    truncate() {
      if (!running) return Promise.resolve(false);
      truncating ??= Promise.race([
        new Promise<boolean>((resolve) => {
          worker.once('message', (done: boolean) => resolve(done));
          worker.postMessage('truncate');
        }),
        exited.then(() => false),
      ]).finally(() => (truncating = undefined));
      return truncating;
    },
    async stop() {
      // Held again while it closes, or the process could end before its exit arrives.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
