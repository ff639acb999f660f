import { existsSync, rmSync } from 'node:fs';
import { cryptoIds } from '../../ids.js';
import { registerBackend } from '../backend.js';
import type { Storage, StorageOptions } from '../storage.js';
import { type FileGuard, guardDatabaseFile, guardDiskSpace, type SpaceGuard } from './faults.js';
import { createGroupCommit } from './group-commit.js';
import { isLocked, lockPathFor } from './lock.js';
import { offThread, writesOffThread } from './off-thread.js';
import {
  closeDatabase,
  databaseIdentity,
  openDatabase,
  reclaimSpace,
  reclaimSpaceOffThread,
  truncateWal,
  walCaughtUp,
} from './open.js';
import {
  copyDatabase,
  isDamaged,
  prepareSnapshot,
  readSnapshot,
  readSnapshotInfo,
  replaceContents,
  writeTextCopy,
} from './snapshot.js';

/** Free pages given back to the file system in the first step; then as many as take about RECLAIM_TARGET_MS. */
const FIRST_RECLAIM_PAGES = 256;
/** How long one step of giving space back should hold the writes on the request thread (an in-memory database). */
const RECLAIM_TARGET_MS = 5;
/** How long one step of giving space back holds the writes, on the checkpointer's thread (the request thread does not wait on it). */
const RECLAIM_STEP_MS = 20;
/** How long bulk work waits, after a step, for the checkpointer to copy the WAL into the database file (then it goes on regardless). */
const CATCH_UP_FOR_MS = 2_000;
/**
 * WAL pages (16 MiB) past which bulk work waits for the checkpointer after a step: the pages it
 * writes go through the WAL, and the writer's backstop checkpoint (on the request thread) would
 * otherwise copy them. Not after every step: each checkpoint syncs the database file.
 */
const WAL_PAGES_BEFORE_WAIT = 4_096;
/** How long giving space back keeps trying to cut the WAL back (each try waits for no one). */
const TRUNCATE_FOR_MS = 5_000;

/**
 * The SQLite side of the storage seam: one connection that writes, through the group commit; the
 * WAL checkpointer and giving space back; the guards on the database file and the disk; snapshots
 * as SQLite files. The lock that keeps a second server away is taken before this (open-storage.ts).
 * @example const storage = await openSqliteStorage({ location: ':memory:' });
 */
export async function openSqliteStorage(options: StorageOptions): Promise<Storage> {
  const location = options.location;
  // The header identity tells this database from a file copied over it: never from a seed, or two
  // databases made with one seed would look alike.
  const db = await openDatabase({
    path: location,
    backgroundCheckpoints: options.underLoad ?? false,
    throwAway: options.throwAway ?? false,
    readsOffThread: options.readsApart ?? true,
    identity: cryptoIds.bytes(4).readUInt32BE(0) | 1,
  });
  registerBackend(db, { readApart: (job, ...args) => offThread(db, job, ...args) });
  let lostReason: string | undefined;
  let guard: FileGuard | undefined;
  let space: SpaceGuard | undefined;
  if (location !== ':memory:') {
    guard = guardDatabaseFile(location, databaseIdentity(db), (reason) => {
      lostReason = reason;
      options.onLost?.(reason);
    });
    space = guardDiskSpace(location);
  }
  const writes = createGroupCommit(db, {
    beforeBatch: () => {
      guard?.check();
      space?.check();
    },
    afterCommit: options.afterCommit,
    afterStorageFailure: (failure) => space?.refused(failure),
    beforeCommit: options.beforeCommit,
  });

  /**
   * Waits, holding nothing, while the WAL is long, until the checkpointer has copied all of it (for at most
   * CATCH_UP_FOR_MS: a long read can keep it from finishing).
   */
  const catchUp = async () => {
    const deadline = performance.now() + CATCH_UP_FOR_MS;
    // Once long, the WAL must be copied whole: only then does the writer start it over.
    let pages = WAL_PAGES_BEFORE_WAIT;
    while (!(await walCaughtUp(db, pages)) && performance.now() < deadline) {
      pages = 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  return {
    db,
    location,
    backend: 'sqlite',
    // One server per database file (the lock): its memory is the truth.
    shared: false,
    // One writer: every write already runs alone, whatever its lane.
    write: (work) => writes.write(work),
    // One server: nothing else writes the lane.
    holdLane: async () => ({ write: (work) => writes.write(work), release: async () => {} }),
    exclusive: writes.exclusive,
    drain: writes.drain,
    bulkWriter: () => writesOffThread(db),
    catchUp,
    /**
     * The database's free pages go back to the file system a step at a time between write batches,
     * then the WAL file is cut back (the pages moved went through it), trying for up to 5 s. With a
     * background checkpointer the steps run on its thread, so the request thread never waits on one
     * (a step of 64 pages took up to 180 ms here when the pages to move lay far apart).
     */
    async reclaim(phase) {
      let pages = FIRST_RECLAIM_PAGES;
      // Until nothing is left, or nothing more can go (a database that does not give space back).
      for (let left = Infinity, now = 0; left > 0; left = now) {
        const started = performance.now();
        const apart = await writes.exclusive(() => reclaimSpaceOffThread(db, RECLAIM_STEP_MS));
        if (apart === -1) break;
        if (apart === undefined) {
          now = await writes.exclusive(() => reclaimSpace(db, pages));
          const took = performance.now() - started;
          if (took < RECLAIM_TARGET_MS / 2) pages = Math.min(65_536, pages * 2);
          else if (took > RECLAIM_TARGET_MS * 2) pages = Math.max(FIRST_RECLAIM_PAGES / 4, Math.floor(pages / 2));
        } else {
          now = apart;
          await catchUp();
        }
        if (now >= left) break;
      }
      // Between two write batches: a batch that has read could not write once the WAL was reset under it.
      phase?.('truncate');
      const deadline = Date.now() + TRUNCATE_FOR_MS;
      while (!(await writes.exclusive(() => truncateWal(db))) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    snapshots: {
      nativeFormat: 'sqlite',
      async copy(target, meta, format = 'sqlite') {
        // An in-memory database has one connection: it is copied between two write batches. A file is
        // copied from a connection of its own while requests go on.
        const copyBinary = (to: string) =>
          location === ':memory:' ? writes.exclusive(() => copyDatabase(db, to, meta)) : copyDatabase(db, to, meta);
        if (format === 'sqlite') return copyBinary(target);
        // A text copy is written from a binary one, so that it too is one committed state, however
        // many writes run meanwhile. The binary one sits beside the target (a killed save's is removed with it).
        const binary = `${target}-sqlite`;
        try {
          await copyBinary(binary);
          await writeTextCopy(db, binary, target);
        } finally {
          rmSync(binary, { force: true });
        }
      },
      info: readSnapshotInfo,
      prepare: prepareSnapshot,
      // The work file sits in the caller's work directory, which it removes.
      discard: async () => {},
      read: (file, job, ...args) => readSnapshot(db, file, job, ...args),
      replace: (file, replaceOptions) => replaceContents(db, file, replaceOptions),
      isDamaged,
      // Another live sandbox's database holds part of its state in its WAL, which a copy of the file misses.
      isServed(path) {
        const lock = lockPathFor(path.replace(/-(wal|shm|journal|lock|lock\.json)$/, ''));
        return existsSync(lock) && isLocked(lock);
      },
    },
    lost: () => lostReason,
    async close() {
      guard?.stop();
      await writes.drain();
      await closeDatabase(db);
    },
  };
}
