import { type Kysely, sql } from 'kysely';
import { registerBackend } from '../backend.js';
import type { Database } from '../database.js';
import { LedgerError } from '../../errors.js';
import { migrateToLatest } from '../migrations/index.js';
import { storageFailure } from '../storage-errors.js';
import type { LaneHold, Storage, StorageOptions, Work } from '../storage.js';
import { openWrite, type Written } from '../write-transaction.js';
import { connect, DEFAULT_POSTGRES_SETTINGS, type PostgresSettings } from './connect.js';
import { isRetryable } from './postgres-errors.js';
import {
  copyAsText,
  dropStaging,
  prepareSnapshot,
  readSnapshot,
  readSnapshotInfo,
  replaceContents,
} from './postgres-snapshot.js';

/** The first key of every advisory lock the sandbox takes (the second names what is locked): 'LEDG'. */
const LOCKS = 0x4c454447;
/** The second key of the lock between writes (shared) and work done alone (exclusive). */
const ALONE = 0;
/** A write that meets a deadlock or a serialization failure runs again, this many times at most. */
const MAX_ATTEMPTS = 8;

/**
 * The PostgreSQL side of the storage seam. Any number of servers may share one database, so
 * everything that SQLite gets from having one writer in one process is asked of PostgreSQL:
 *
 * - A write is one READ COMMITTED transaction. Writes of one lane (a developer) take a
 *   transaction-scoped advisory lock on it first, so one developer's writes run one at a time
 *   across every server, as they did behind SQLite's one writer, and the engine's read-then-write
 *   rules (idempotency keys, counters, an agent's chain) see a serial history. Different
 *   developers write in parallel. A deadlock or serialization failure runs the write again.
 * - Work done alone (`exclusive`: a restore, a reset's chunks) holds the exclusive side of one
 *   advisory lock whose shared side every write holds: it waits for the writes under way on every
 *   server, and theirs wait for it. A write takes its lane before that shared side, so one that
 *   waits for a held lane (`holdLane`, a reset) holds up no work done alone, the reset's chunks
 *   among it.
 * - `holdLane` takes the lane's lock for a session, on a connection of its own, and the holder's
 *   writes run on that connection: the lock is the session's already, so they do not wait for it.
 * - Reads that must see one state (the audit: `readApart`) run in one REPEATABLE READ transaction.
 * - Upkeep is autovacuum's; there is no file to lose, and a server that cannot be reached is 503
 *   per request (decisions: Storage); snapshots are text (postgres-snapshot.ts).
 * @example const storage = await openPostgresStorage({ location: 'postgres://localhost/ledger' });
 */
export async function openPostgresStorage(
  options: StorageOptions & { postgres?: Partial<PostgresSettings> },
): Promise<Storage> {
  const url = options.location;
  const settings = { ...DEFAULT_POSTGRES_SETTINGS, ...options.postgres };
  const { db } = connect(url, settings);
  // Every statement of the audit reads the same state, whatever other servers commit meanwhile.
  registerBackend(db, {
    readApart: (job, ...args) =>
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute((trx) => job.run(trx, ...args)),
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    // The driver's own error stays as the cause: `sandbox start` says why PostgreSQL refused (a password, a database that does not exist).
    const failure = storageFailure(error);
    if (failure) failure.cause = error;
    throw failure ?? error;
  }

  /** Writes of this process under way, and whoever waits for them all to end. */
  let writing = 0;
  let idle: (() => void)[] = [];
  /** Work done alone in this process, which new writes wait for before taking a connection. */
  let alone: Promise<unknown> | undefined;

  const ended = () => {
    if (--writing === 0) {
      const waiting = idle;
      idle = [];
      waiting.forEach((resolve) => resolve());
    }
  };
  const quiet = () => (writing === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)));

  /** One try of a write, in a transaction of its own: what it made is given back only if it commits. */
  function attempt<T>(work: Work<T>, lane: string | undefined, on: Kysely<Database>): Promise<Written<T>> {
    return on.transaction().execute(async (plain) => {
      const trx = openWrite(plain);
      if (lane === undefined) await sql`SELECT pg_advisory_xact_lock_shared(${LOCKS}, ${ALONE})`.execute(trx);
      // The lane first (the target list runs in order): see holdLane.
      else
        await sql`SELECT pg_advisory_xact_lock(${LOCKS}, hashtext(${lane})), pg_advisory_xact_lock_shared(${LOCKS}, ${ALONE})`.execute(
          trx,
        );
      const value = await work(trx);
      await options.beforeCommit?.(trx);
      return { value, deliveries: trx.deliveries };
    });
  }

  const write = async <T>(work: Work<T>, lane?: string, on: Kysely<Database> = db): Promise<Written<T>> => {
    while (alone) await alone.catch(() => {});
    writing++;
    try {
      for (let tries = 1; ; tries++) {
        try {
          const written = await attempt(work, lane, on);
          options.afterCommit?.();
          return written;
        } catch (error) {
          if (tries < MAX_ATTEMPTS && isRetryable(error)) {
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** tries));
            continue;
          }
          throw storageFailure(error) ?? error;
        }
      }
    } finally {
      ended();
    }
  };

  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    while (alone) await alone.catch(() => {});
    const run = (async () => {
      // This process's writes end first: they hold connections the work may need.
      await quiet();
      return db.connection().execute(async (connection) => {
        await sql`SELECT pg_advisory_lock(${LOCKS}, ${ALONE})`.execute(connection);
        try {
          return await work();
        } finally {
          await sql`SELECT pg_advisory_unlock(${LOCKS}, ${ALONE})`.execute(connection);
        }
      });
    })();
    alone = run;
    try {
      return await run;
    } catch (error) {
      throw storageFailure(error) ?? error;
    } finally {
      if (alone === run) alone = undefined;
    }
  };

  /** The lane's lock for a session, on a connection kept until release; the holder's writes run on it. */
  const holdLane = async (lane: string): Promise<LaneHold> => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let taken!: (connection: Kysely<Database>) => void;
    const ready = new Promise<Kysely<Database>>((resolve) => (taken = resolve));
    const holding = db.connection().execute(async (connection) => {
      await sql`SELECT pg_advisory_lock(${LOCKS}, hashtext(${lane}))`.execute(connection);
      try {
        taken(connection);
        await released;
      } finally {
        await sql`SELECT pg_advisory_unlock(${LOCKS}, hashtext(${lane}))`.execute(connection);
      }
    });
    const connection = await Promise.race([ready, holding.then(() => undefined)]).catch((error: unknown) => {
      throw storageFailure(error) ?? error;
    });
    if (!connection) throw new Error('the lane hold ended before it was taken');
    return {
      write: (work) => write(work, lane, connection),
      async release() {
        release();
        await holding.catch(() => {});
      },
    };
  };

  return {
    db,
    location: url,
    backend: 'postgres',
    shared: true,
    write: (work, lane) => write(work, lane),
    holdLane,
    exclusive,
    drain: quiet,
    bulkWriter: () => ({
      offThread: false,
      run: (job, ...args) => db.transaction().execute((trx) => job.run(trx, ...args)),
      close: async () => {},
    }),
    // Autovacuum does this work on PostgreSQL.
    catchUp: async () => {},
    reclaim: async () => {},
    snapshots: {
      nativeFormat: 'json',
      async copy(target, _meta, format = 'json') {
        if (format !== 'json') {
          throw new LedgerError('VALIDATION_ERROR', 'a PostgreSQL sandbox saves text snapshots: use --format json', [
            { field: 'format', message: 'must be json on PostgreSQL' },
          ]);
        }
        await copyAsText(db, target);
      },
      info: readSnapshotInfo,
      prepare: (file, _work, field) => prepareSnapshot(db, url, settings, file, field),
      read: (schema, job, ...args) => readSnapshot(url, settings, schema, job, ...args),
      replace: (schema, replaceOptions) => replaceContents(db, schema, replaceOptions),
      discard: (schema) => dropStaging(db, schema),
      isDamaged: () => false,
      // A snapshot file is never a PostgreSQL database another server serves.
      isServed: () => false,
    },
    lost: () => undefined,
    async close() {
      await quiet();
      await db.destroy();
    },
  };
}
