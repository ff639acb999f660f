import { closeSync, openSync, readSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { LedgerError } from '../../errors.js';
import { storageFailure } from '../storage-errors.js';
import { sqliteError } from './sqlite-errors.js';

/**
 * Watches the database file of a running server: a file removed, replaced (another inode) or
 * truncated under it means every write from now on would be lost, so it must stop instead of
 * answering 200 (decisions: Storage). `check()` is cheap (one stat) and runs before every write batch;
 * a timer also reads the file header, which catches a copy over the same inode.
 */
export interface FileGuard {
  /** Throws STORAGE_UNAVAILABLE once the file is lost. */
  check(): void;
  stop(): void;
}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export function guardDatabaseFile(
  path: string,
  identity: number,
  onLost: (reason: string) => void,
  intervalMs = 500,
): FileGuard {
  const first = statSync(path);
  const wal = (() => {
    try {
      return statSync(`${path}-wal`).ino;
    } catch {
      return undefined;
    }
  })();
  let lost: string | undefined;

  const lose = (reason: string) => {
    if (lost) return;
    lost = reason;
    clearInterval(timer);
    // Our WAL must not be replayed onto whatever now stands at this path.
    try {
      if (wal !== undefined && statSync(`${path}-wal`).ino === wal) {
        unlinkSync(`${path}-wal`);
        unlinkSync(`${path}-shm`);
      }
    } catch {
      // already gone
    }
    onLost(reason);
  };

  const quick = () => {
    let now;
    try {
      now = statSync(path);
    } catch {
      return lose(`the database file ${path} was removed`);
    }
    if (now.ino !== first.ino || now.dev !== first.dev)
      return lose(`the database file ${path} was replaced by another file`);
    if (now.size < 100) return lose(`the database file ${path} was truncated`);
  };

  const deep = () => {
    quick();
    if (lost) return;
    const header = Buffer.alloc(100);
    try {
      const fd = openSync(path, 'r');
      try {
        readSync(fd, header, 0, 100, 0);
      } finally {
        closeSync(fd);
      }
    } catch {
      return lose(`the database file ${path} cannot be read`);
    }
    if (!header.subarray(0, 16).equals(HEADER)) return lose(`the database file ${path} was overwritten`);
    // user_version holds this database's identity once the header has been checkpointed.
    const stored = header.readUInt32BE(60);
    if (stored !== 0 && stored !== identity)
      return lose(`the database file ${path} was overwritten with another database`);
  };

  const timer = setInterval(deep, intervalMs);
  timer.unref();
  return {
    check() {
      if (!lost) quick();
      if (lost) throw new LedgerError('STORAGE_UNAVAILABLE', `${lost}: the sandbox stopped taking writes`);
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** Free space below which a disk that has refused a write counts as still full. */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * Remembers that the disk under a database refused a write, and from then on refuses writes up
 * front (STORAGE_FULL) until the file system has room again: once full, the sandbox answers 507
 * every time, instead of now and then committing a small write into room that a refused one left
 * in the WAL file. One statfs per write batch, only while the disk is full.
 */
export interface SpaceGuard {
  /** Throws STORAGE_FULL while the disk that refused a write has less than 1 MiB free. */
  check(): void;
  /** A write was refused (the failure it answered with). */
  refused(failure: Error): void;
}

export function guardDiskSpace(path: string): SpaceGuard {
  let full = false;
  return {
    check() {
      if (!full) return;
      let free = Infinity;
      try {
        const stats = statfsSync(dirname(path));
        free = stats.bavail * stats.bsize;
      } catch {
        // Cannot tell: let the write try.
      }
      if (free < FULL_BELOW_BYTES) throw storageFailure(sqliteError('SQLITE_FULL', 'database or disk is full'))!;
      full = false;
    },
    refused(failure) {
      if ((failure as { code?: string }).code === 'STORAGE_FULL') full = true;
    },
  };
}
