import { closeSync, openSync, readSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { LedgerError } from '../../errors.js';

/**
 * What a failed SQLite write means for the caller (contract §10): the disk is full (507), or the
 * database cannot be written at all (503: read-only, locked by another process, an I/O error, a file
 * that is gone). Undefined for any other error.
 */
export function storageFailure(error: unknown): LedgerError | undefined {
  if (error instanceof LedgerError) return error.code === 'STORAGE_FULL' || error.code === 'STORAGE_UNAVAILABLE' ? error : undefined;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' && /disk|space/i.test(String((error as Error).message))) {
    return new LedgerError('STORAGE_FULL', 'the disk is full: nothing was written; free some space and retry');
  }
  if (/^SQLITE_(READONLY|BUSY|LOCKED|IOERR|CANTOPEN|CORRUPT|NOTADB|PERM)/.test(code)) {
    return new LedgerError('STORAGE_UNAVAILABLE', `the database cannot be written (${code.replace('SQLITE_', '').toLowerCase().replaceAll('_', ' ')}): nothing was written; retry later`);
  }
  return undefined;
}

/** An error shaped like better-sqlite3's, for the fault-injection seam. */
export function sqliteError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'SqliteError', code });
}

/**
 * Watches the database file of a running server: a file removed, replaced (another inode) or
 * truncated under it means every write from now on would be lost, so it must stop instead of
 * answering 200 (contract §10). `check()` is cheap (one stat) and runs before every write batch;
 * a timer also reads the file header, which catches a copy over the same inode.
 */
export interface FileGuard {
  /** Throws STORAGE_UNAVAILABLE once the file is lost. */
  check(): void;
  stop(): void;
}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export function guardDatabaseFile(path: string, identity: number, onLost: (reason: string) => void, intervalMs = 500): FileGuard {
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
    if (now.ino !== first.ino || now.dev !== first.dev) return lose(`the database file ${path} was replaced by another file`);
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
    if (stored !== 0 && stored !== identity) return lose(`the database file ${path} was overwritten with another database`);
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
