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
// A vacuum's steps write: when one starts the WAL over, this thread cuts the file back (open.ts WAL_SIZE_LIMIT).
db.pragma('journal_size_limit = ' + workerData.walSizeLimit);
// The last checkpoint's outcome: { busy, log, checkpointed } (pages).
let last;
const checkpoint = () => {
  try { last = db.pragma('wal_checkpoint(PASSIVE)')[0]; } catch { last = undefined; }
};
// The database's data_version at the last round: it changes when another connection commits.
let seen;
// Rounds of the timer that checkpointed (the 'rounds' question).
let rounds = 0;
// A round checkpoints only when something was committed since one that copied the whole WAL, and
// rounds with nothing new come further apart, up to 25 intervals (500 ms): an idle sandbox's thread
// then does next to nothing (a checkpoint every 20 ms was 1.7 % of a core here, the wake-ups alone
// 0.8 %). The first commit after a quiet spell waits at most that long for its round; a load's
// commits find the rounds at every interval again. This thread's own writes (a vacuum's) do not
// change data_version here: 'seen' is forgotten after them.
const dataVersion = db.prepare('PRAGMA data_version').pluck();
const versionNow = () => {
  try { return dataVersion.get(); } catch { return undefined; }
};
// Whether the last checkpoint copied the whole WAL.
const allCopied = () => last !== undefined && last.busy === 0 && last.checkpointed >= last.log;
let delay = workerData.intervalMs;
// A checkpoint as of data_version 'version', with the rounds back at every interval.
const copySince = (version) => {
  seen = version;
  delay = workerData.intervalMs;
  checkpoint();
};
const round = () => {
  const version = versionNow();
  if (version !== undefined && version === seen && allCopied()) {
    delay = Math.min(delay * 2, workerData.intervalMs * 25);
    return;
  }
  rounds += 1;
  copySince(version);
};
let timer;
const next = () => {
  timer = setTimeout(() => {
    round();
    next();
  }, delay);
};
next();
// Answers, in the order asked (the thread runs one at a time):
// - truncate: tries once to cut the WAL file back to nothing, once it is all copied and no one
//   reads it (TRUNCATE, which does not wait either); whether it did.
// - catchUp: 0 if every page of the WAL is in the database file (the writer's next transaction
//   starts the WAL over from its beginning instead of making it longer), else the WAL's length in
//   pages (-1: busy); a checkpoint first, unless the last one left the WAL under 'pages' long.
// - vacuum: free pages given back to the file system (incremental vacuum), a step of at most
//   'step' pages at a time, for about 'forMs' ms (a step moves pages, reading their parents: its cost
//   depends on where they lie); the free pages left, or -1 if the database was busy. Only while
//   the writer holds back (it runs between two write batches).
parentPort.on('message', (message) => {
  if (message.op === 'truncate') {
    let done = false;
    try { done = db.pragma('wal_checkpoint(TRUNCATE)')[0].busy === 0; } catch {}
    seen = undefined;
    parentPort.postMessage(done);
  } else if (message.op === 'rounds') {
    parentPort.postMessage(rounds);
  } else if (message.op === 'catchUp') {
    // The last round's outcome will do while the WAL is shorter than asked: no checkpoint (and no sync) per question.
    // Not when all of it is asked for (pages 1): that round may be older than the last commit, and its 'all
    // copied' would let the next write make the WAL longer instead of starting it over. A round with
    // nothing new to copy neither writes nor syncs. Nor when something was committed since the last
    // round: rounds come up to 500 ms apart while nothing is written.
    const version = versionNow();
    if (!last || last.busy !== 0 || message.pages <= 1 || version !== seen || last.checkpointed < last.log && last.log >= message.pages) copySince(version);
    parentPort.postMessage(!last || last.busy !== 0 ? -1 : allCopied() ? 0 : last.log);
  } else if (message.op === 'vacuum') {
    let left = -1;
    try {
      db.pragma('cache_size = -8192');
      const until = performance.now() + message.forMs;
      do {
        db.pragma('incremental_vacuum(' + message.step + ')');
        left = db.pragma('freelist_count', { simple: true });
      } while (left > 0 && performance.now() < until);
    } catch {
      left = -1;
    } finally {
      db.pragma('cache_size = 16');
      seen = undefined;
    }
    parentPort.postMessage(left);
  } else {
    clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
`;

export interface Checkpointer {
  /**
   * Tries once to cut the WAL file back to nothing (after a reset); resolves whether it did. Only
   * while the writer has no transaction open: a write transaction that has read cannot write once
   * the WAL was reset under it (SQLITE_BUSY, which waits for nothing).
   */
  truncate(): Promise<boolean>;
  /**
   * Resolves 0 if the whole WAL is in the database file, else the WAL's length in pages (-1: a
   * reader held it, or this thread ended); it checkpoints first unless the last round left the WAL
   * under `pages` long. Work that writes a lot (a reset) waits for 0 between its steps once the WAL
   * is long, so the WAL does not grow past what the checkpoints keep up with (a WAL of gigabytes,
   * cut back later by the writer in one long call).
   */
  catchUp(pages: number): Promise<number>;
  /**
   * Gives free pages back to the file system for about `forMs` ms, off the request thread; resolves
   * the free pages left (-1: the database was busy, or this thread ended). Only while the writer
   * holds back: run it in `exclusive`.
   */
  vacuum(forMs: number): Promise<number>;
  /** How many of the timer's rounds have checkpointed (a round with nothing new since a whole copy does not): for diagnostics and tests. */
  rounds(): Promise<number>;
  stop(): Promise<void>;
}

/** Pages one incremental vacuum step moves at most, in the worker (it checks the time between steps). */
const VACUUM_STEP_PAGES = 256;

/**
 * Checkpoints a WAL database from a worker thread. A checkpoint copies pages into the database
 * file and syncs it to disk (several fsyncs); done on the connection that writes, it stalls every
 * request behind it for milliseconds. Here the writer only appends to the WAL, and checkpoints
 * itself only where this thread falls far behind (open.ts BACKSTOP_CHECKPOINT_PAGES).
 * The same thread gives free pages back to the file system after a reset (`vacuum`).
 * @example const checkpointer = startCheckpointer('/tmp/ledger.db'); ... await checkpointer.stop();
 */
export function startCheckpointer(
  path: string,
  options: { throwAway?: boolean; walSizeLimit?: number; onEnd?: () => void } = {},
): Checkpointer {
  const worker = startSqliteWorker(
    WORKER_SOURCE,
    {
      path,
      intervalMs: INTERVAL_MS,
      synchronous: options.throwAway ? 'OFF' : 'NORMAL',
      walSizeLimit: options.walSizeLimit ?? -1,
    },
    // The vacuum's page cache (8 MiB) lives outside the heap.
    { resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } },
  );
  // A failed checkpointer costs speed, not correctness: the writer's own checkpoints take over.
  worker.on('error', () => {});
  worker.unref();
  let running = true;
  let stopping = false;
  // Answers come back in the order asked.
  const waiting: ((answer: unknown) => void)[] = [];
  worker.on('message', (answer: unknown) => waiting.shift()?.(answer));
  const exited = new Promise((resolve) => worker.once('exit', resolve)).finally(() => {
    running = false;
    for (const answer of waiting.splice(0)) answer(undefined);
    if (!stopping) options.onEnd?.();
  });
  function ask<T>(message: object, otherwise: T): Promise<T> {
    if (!running) return Promise.resolve(otherwise);
    return new Promise<T>((resolve) => {
      waiting.push((answer) => resolve(answer === undefined ? otherwise : (answer as T)));
      worker.postMessage(message);
    });
  }
  let truncating: Promise<boolean> | undefined;
  return {
    truncate() {
      truncating ??= ask({ op: 'truncate' }, false).finally(() => (truncating = undefined));
      return truncating;
    },
    catchUp: (pages) => ask({ op: 'catchUp', pages }, -1),
    vacuum: (forMs) => ask({ op: 'vacuum', forMs, step: VACUUM_STEP_PAGES }, -1),
    rounds: () => ask({ op: 'rounds' }, -1),
    async stop() {
      stopping = true;
      // Held again while it closes, or the process could end before its exit arrives.
      worker.ref();
      worker.postMessage({ op: 'stop' });
      await exited;
    },
  };
}
