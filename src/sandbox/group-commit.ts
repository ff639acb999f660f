import { type ControlledTransaction, sql, type Transaction } from 'kysely';
import type { Database, Db } from '../engine/db/database.js';

export type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Job {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

// Plain SQL savepoints (portable: SQLite and PostgreSQL spell them alike); built once.
const SAVEPOINT = sql.raw('savepoint write');
const RELEASE = sql.raw('release savepoint write');
const ROLLBACK_TO = sql.raw('rollback to savepoint write');

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
 * Reads do not come here: a read inside a batch would see writes that are not committed yet.
 * @example const wallet = await writes.write((trx) => createWallet(trx, env, developerId, input));
 */
export interface GroupCommit {
  write<T>(work: Work<T>): Promise<T>;
  /** Resolves when everything queued so far has committed or failed. */
  drain(): Promise<void>;
}

export function createGroupCommit(db: Db): GroupCommit {
  let queue: Job[] = [];
  let flushing: Promise<void> | undefined;

  async function runBatch(batch: Job[]): Promise<void> {
    if (batch.length === 1) {
      const [job] = batch as [Job];
      await db.transaction().execute(job.work).then(job.resolve, job.reject);
      return;
    }
    const outcomes: Outcome[] = [];
    let trx: ControlledTransaction<Database> | undefined;
    try {
      trx = await db.startTransaction().execute();
      for (const job of batch) {
        await SAVEPOINT.execute(trx);
        try {
          const value = await job.work(trx);
          await RELEASE.execute(trx);
          outcomes.push({ ok: true, value });
        } catch (error) {
          await ROLLBACK_TO.execute(trx);
          await RELEASE.execute(trx);
          outcomes.push({ ok: false, error });
        }
      }
      await trx.commit().execute();
    } catch (error) {
      // The batch itself failed (COMMIT, or a savepoint command): nothing of it is kept.
      await trx?.rollback().execute().catch(() => {});
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  async function flush(): Promise<void> {
    // Waiting one turn lets every request that arrived with this one queue its write first.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      await runBatch(batch);
    }
    flushing = undefined;
  }

  return {
    write<T>(work: Work<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        flushing ??= flush();
      });
    },
    async drain() {
      while (flushing) await flushing;
    },
  };
}
