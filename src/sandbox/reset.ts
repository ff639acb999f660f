import { channel } from 'node:diagnostics_channel';
import type { Transaction } from 'kysely';
import type { Database } from '../engine/db/database.js';
import type { IdempotentOperation } from '../engine/idempotency/idempotency.service.js';
import { beginReset, finishReset, resetChunkJob, unfinishedResets } from '../engine/reset/reset.service.js';
import type { HeldLane, Sandbox } from './sandbox.js';

/**
 * How long one chunk of a reset should hold the database: the rows it removes follow what the last
 * one took. On the request thread a chunk stalls it, so 5 ms; on the reset's worker thread it only
 * holds other developers' writes back, as a step of giving space back does (sqlite-storage.ts RECLAIM_STEP_MS), and
 * its time includes waiting for a core, which says little about its rows.
 */
const CHUNK_TARGET_MS = 5;
const OFF_THREAD_CHUNK_TARGET_MS = 20;
const FIRST_ROWS = 250;
/**
 * The fewest rows a chunk removes, on either thread. Off the request thread it was 250, which kept
 * a chunk of the transactions step at 70–125 ms at 200,000 transactions (each of a transaction's
 * three account indexes had a page of its own to write for nearly every row): the request thread
 * waits each chunk out (`exclusive`), and the reset's longest stall followed them.
 */
const MIN_ROWS = 50;
const MAX_ROWS = 20_000;
/** A chunk, as a job for the storage's bulk writer (on SQLite, a worker thread). */
const RESET_CHUNK = { module: 'engine/reset/reset.service', name: 'resetChunkJob', run: resetChunkJob };
/** The first step (the mark, the accounts zeroed: a scan of `accounts`), as a job for the same thread. */
const BEGIN_RESET = { module: 'engine/reset/reset.service', name: 'beginReset', run: beginReset };
/**
 * The routes whose effects a reset keeps (the developer's clock, its signing secret): their
 * Idempotency-Keys stay too, or a retry after the reset would move the clock or rotate the secret
 * a second time (seen).
 */
const KEPT_ANSWERS: IdempotentOperation[] = [
  { method: 'POST', route: '/sandbox/clock/advance' },
  { method: 'POST', route: '/sandbox/webhook-endpoint/rotate-secret' },
];

/**
 * Where each reset stands, for a tracer in the same process (bench/scale.js names the phase in
 * which the server's event loop stalled longest): a message `{ developerId, phase }` as each phase
 * starts: quiesce, begin, chunk (with the step), catch-up, finish, give-back, truncate, done.
 * Nothing is made when no one listens.
 */
export const resetPhases = channel('ledger:reset');
const phase = (developerId: string, name: string, step?: number) => {
  if (resetPhases.hasSubscribers) resetPhases.publish({ developerId, phase: name, step });
};

/** Waits, while the developer is held, until nothing of its own still runs (its write requests, deliveries, settlements). */
export type Quiesce = (developerId: string) => Promise<void>;

/**
 * Resets one developer without stopping the sandbox (decisions: Tenancy, clocks and reset). A reset
 * of a large ledger removes millions of rows: done in one statement it would hold the server for a
 * minute, and its WAL would grow by gigabytes. Here the developer's requests are held back (they
 * wait, then see the empty books), everything of its own that was running finishes, and then:
 *
 * 1. one write marks the reset and zeroes the developer's accounts, so the sandbox's books balance
 *    throughout (and a sandbox stopped midway finishes the reset when it starts again), on the
 *    chunks' thread (it scans `accounts`);
 * 2. the rows go in chunks, each its own short transaction between two write batches, on a worker
 *    thread with its own connection (`Storage.bulkWriter`; sqlite/off-thread.ts), sized to hold the other
 *    writes back for about 20 ms: the request thread only waits for each, so a delete that reads
 *    pages from disk or a COMMIT that checkpoints never stalls it (both took 100–340 ms at 200,000
 *    transactions), and every other developer's requests keep being served. It does not
 *    checkpoint inside a chunk: between chunks, holding nothing, the reset waits while the WAL is
 *    long for the background checkpointer to copy it. Where work stays on the request thread (an
 *    in-memory sandbox), a chunk runs there, sized to take about 5 ms;
 * 3. the last write, on the request thread, removes the mark (one row: the wallet accounts went in
 *    the last chunks), with `finish` (the answer and its Idempotency-Key) in the same transaction.
 *    No other SQLite work of the reset runs on the request thread where a worker runs the chunks;
 *    the other developers' writes wait for each chunk in the write queue (`exclusive`), not on the
 *    database's lock, so they never block the event loop;
 * 4. the space goes back to the file system, a few MiB at a time (`Storage.reclaim`).
 *
 * Where other servers share the database, the developer's lane is held against them from the
 * quiesce to the last write (Sandbox.holdLane): their writes of the developer's wait for it, as
 * this server's requests do. A reset resumed at a start (`resumed`) that another server finished
 * meanwhile does nothing.
 * @example const removed = await resetInChunks(sandbox, quiesce, developerId, (trx, removed) => store(trx, removed));
 */
export async function resetInChunks<T>(
  sandbox: Sandbox,
  quiesce: Quiesce,
  developerId: string,
  finish: (trx: Transaction<Database>, removed: Record<string, number>) => Promise<T>,
  resumed = false,
): Promise<T> {
  const release = sandbox.hold(developerId);
  let result: T;
  let lane: HeldLane | undefined;
  try {
    phase(developerId, 'quiesce');
    await quiesce(developerId);
    // Other servers on the same database write nothing of the developer's until the reset is over.
    lane = await sandbox.holdLane(developerId);
    // Resumed at a start: another server may have finished it meanwhile, and the books are in use again.
    if (resumed && !(await unfinishedResets(sandbox.db)).includes(developerId)) return undefined as T;
    let rows = FIRST_ROWS;
    const writer = sandbox.storage.bulkWriter();
    let progress;
    try {
      // A resumed reset starts its walk over (what it removed before is not counted again).
      phase(developerId, 'begin');
      progress = await sandbox.exclusive(() => writer.run(BEGIN_RESET, developerId));
      const target = writer.offThread ? OFF_THREAD_CHUNK_TARGET_MS : CHUNK_TARGET_MS;
      for (let more = true; more;) {
        const started = performance.now();
        phase(developerId, 'chunk', progress.step);
        const chunk = await sandbox.exclusive(() =>
          writer.run(RESET_CHUNK, developerId, structuredClone(progress!), rows, KEPT_ANSWERS),
        );
        const took = performance.now() - started;
        const full =
          Object.values(chunk.progress.removed).reduce((a, b) => a + b, 0) -
            Object.values(progress.removed).reduce((a, b) => a + b, 0) >=
          rows;
        progress = chunk.progress;
        more = chunk.more;
        rows = adapt(rows, took, full, MIN_ROWS, MAX_ROWS, target);
        // Holding nothing: the worker leaves the WAL to the checkpointer (sqlite/open.ts WORKER_BACKSTOP_PAGES).
        phase(developerId, 'catch-up');
        if (writer.offThread) await sandbox.storage.catchUp();
      }
    } finally {
      await writer.close();
    }
    const done = progress;
    phase(developerId, 'finish');
    result = await lane.write(async (trx) => finish(trx, await finishReset(trx, developerId, done)));
  } finally {
    await lane?.release();
    release();
  }
  phase(developerId, 'give-back');
  await sandbox.storage.reclaim((name) => phase(developerId, name));
  phase(developerId, 'done');
  return result;
}

/** The size of the next step: doubled while steps are quick (and were full), halved when one took too long. */
function adapt(size: number, took: number, full: boolean, min: number, max: number, targetMs: number): number {
  if (full && took < targetMs / 2) return Math.min(max, size * 2);
  if (took > targetMs * 2) return Math.max(min, Math.floor(size / 2));
  return size;
}

/** Finishes, in the background, every reset that a stopped sandbox left half done; its developer waits meanwhile. */
export async function resumeResets(
  sandbox: Sandbox,
  quiesce: Quiesce,
  onError: (error: unknown) => void,
): Promise<void> {
  for (const developerId of await unfinishedResets(sandbox.db)) {
    resetInChunks(sandbox, quiesce, developerId, async () => undefined, true).catch(onError);
  }
}
