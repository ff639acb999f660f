import { type ControlledTransaction, sql, type Transaction } from 'kysely';
import type { Database, Db } from '../database.js';
import { runDirect } from './direct.js';
import { storageFailure } from '../storage-errors.js';
import type { Work } from '../storage.js';
import { openWrite, type WriteTransaction, type Written } from '../write-transaction.js';

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A write, which shares a batch, or work that runs alone between two batches (see `exclusive`). */
type WriteJob = Waiting & { work: Work<unknown> };
type AloneJob = Waiting & { alone: () => Promise<unknown> };
type Job = WriteJob | AloneJob;

type Outcome = { ok: true; written: Written<unknown> } | { ok: false; error: unknown };

// Plain SQL savepoints (portable: SQLite and PostgreSQL spell them alike), two or three per write of
// a batch: run on the transaction's connection directly, as the prepared statements are (direct.ts),
// not through Kysely's executor (1.6 % of the server's main thread under a transfer load).
const command = (text: string) => {
  const query = sql.raw(text);
  return (trx: Transaction<Database>) => runDirect(trx, text, []) ?? query.execute(trx);
};
const SAVEPOINT = command('savepoint write');
const RELEASE = command('release savepoint write');
const ROLLBACK_TO = command('rollback to savepoint write');

/** Writes that share one COMMIT at most; a bound keeps the wait of the last one short. */
const MAX_BATCH = 32;

/**
 * Group commit. Writes that arrive in the same turn of the event loop share one database
 * transaction, each inside its own savepoint: one that fails rolls back alone and its caller gets
 * its error, the others commit together. Every caller hears back only after COMMIT, so no answer
 * is ever given for a write that could still be lost. A COMMIT costs the same whether it carries
 * one transfer or twenty (the pages written to the WAL are mostly shared), so under concurrent
 * load this is where the time goes down.
 *
 * Each write answers with its own value and the webhook deliveries it made (Written): those of a
 * write rolled back to its savepoint go with it, and a batch that fails gives back nothing.
 *
 * Reads do not come here: a read inside a batch would see writes that are not committed yet.
 * @example const { value: wallet } = await writes.write((trx) => createWallet(trx, env, developerId, input));
 */
export interface GroupCommit {
  write<T>(work: Work<T>): Promise<Written<T>>;
  /**
   * Runs `work` on its own between two batches: every write queued before it has committed, none
   * queued after it has started, and no transaction is open, so it may manage its own (a snapshot
   * restore, which must ATTACH a database outside any transaction) or read a committed state.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when everything queued so far has committed or failed. */
  drain(): Promise<void>;
}

export interface GroupCommitOptions {
  /** Runs before every batch; throwing refuses the whole batch (a database file lost under the server). */
  beforeBatch?: () => void;
  /** Runs after every batch that committed: the database takes writes. */
  afterCommit?: () => void;
  /** Runs after a batch (or work run alone) failed for the storage's sake, with the 507 / 503 it answers. */
  afterStorageFailure?: (failure: Error) => void;
  /** Runs inside every batch's transaction just before COMMIT (state that must commit with the batch). */
  beforeCommit?: (trx: Transaction<Database>) => Promise<void>;
}

export function createGroupCommit(db: Db, options: GroupCommitOptions = {}): GroupCommit {
  let queue: Job[] = [];
  let flushing: Promise<void> | undefined;

  async function runBatch(batch: WriteJob[]): Promise<void> {
    const outcomes: Outcome[] = [];
    let trx: (ControlledTransaction<Database> & WriteTransaction) | undefined;
    try {
      options.beforeBatch?.();
      trx = openWrite(await db.startTransaction().execute());
      const { deliveries } = trx;
      if (batch.length === 1) {
        const value = await batch[0]!.work(trx);
        outcomes.push({ ok: true, written: { value, deliveries } });
      } else {
        for (const job of batch) {
          await SAVEPOINT(trx);
          const before = deliveries.length;
          try {
            const value = await job.work(trx);
            await RELEASE(trx);
            outcomes.push({ ok: true, written: { value, deliveries: deliveries.slice(before) } });
          } catch (error) {
            // A full disk or an I/O error may already have rolled the whole transaction back:
            // the batch cannot commit, so it fails as a whole below.
            if (storageFailure(error)) throw error;
            await ROLLBACK_TO(trx);
            await RELEASE(trx);
            deliveries.length = before;
            outcomes.push({ ok: false, error });
          }
        }
      }
      await options.beforeCommit?.(trx);
      await trx.commit().execute();
      options.afterCommit?.();
    } catch (error) {
      // The batch itself failed (COMMIT, a savepoint command, the storage, or the one write of a
      // batch of one): nothing of it is kept. A storage failure reaches every caller as 507 / 503.
      await trx
        ?.rollback()
        .execute()
        .catch(() => {});
      const storage = storageFailure(error);
      if (storage) options.afterStorageFailure?.(storage);
      for (const job of batch) job.reject(storage ?? error);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.written);
      else job.reject(outcome.error);
    });
  }

  async function runAlone(job: AloneJob): Promise<void> {
    try {
      options.beforeBatch?.();
      job.resolve(await job.alone());
    } catch (error) {
      const storage = storageFailure(error);
      if (storage) options.afterStorageFailure?.(storage);
      job.reject(storage ?? error);
    }
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      // Waiting one turn lets every request that arrived with this one queue its write first. And
      // between batches it lets the event loop take in new requests: work that queues its next
      // write as soon as the last commits (a reset's chunks, a backlog of deliveries) is served in
      // turn with everyone else's, instead of holding the server until it is done.
      await new Promise((resolve) => setImmediate(resolve));
      const head = queue[0]!;
      if ('alone' in head) {
        queue.shift();
        await runAlone(head);
        continue;
      }
      const alone = queue.findIndex((job) => 'alone' in job);
      const size = Math.min(MAX_BATCH, alone === -1 ? queue.length : alone);
      const batch = queue.slice(0, size) as WriteJob[];
      queue = queue.slice(size);
      await runBatch(batch);
    }
    flushing = undefined;
  }

  const enqueue = <T>(job: { work: Work<unknown> } | { alone: () => Promise<unknown> }): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ ...job, resolve: resolve as (value: unknown) => void, reject });
      flushing ??= flush();
    });

  return {
    write: <T>(work: Work<T>) => enqueue<Written<T>>({ work }),
    exclusive: <T>(alone: () => Promise<T>) => enqueue<T>({ alone }),
    async drain() {
      while (flushing) await flushing;
    },
  };
}
