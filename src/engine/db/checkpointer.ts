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
// Asked to, it also cuts the WAL file back to nothing once it is all copied and no one reads it
// (TRUNCATE, which does not wait either: it is tried again each round, for at most 5 s).
let truncateTries = 0;
const timer = setInterval(() => {
  if (truncateTries > 0) {
    let done = false;
    try { done = db.pragma('wal_checkpoint(TRUNCATE)')[0].busy === 0; } catch {}
    truncateTries -= 1;
    if (done || truncateTries === 0) {
      truncateTries = 0;
      parentPort.postMessage('truncated');
    }
    return;
  }
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'truncate') {
    truncateTries = Math.ceil(5000 / workerData.intervalMs);
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Cuts the WAL file back to nothing as soon as it can (after a reset): resolves when done, or after trying for 5 s. */
  truncate(): Promise<void>;
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
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  let truncating: Promise<void> | undefined;
  return {
    truncate() {
      truncating ??= new Promise<void>((resolve) => {
        worker.once('message', () => {
          truncating = undefined;
          resolve();
        });
        worker.postMessage('truncate');
      });
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
