import SQLite from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { type LockOwner, ownerPathFor, readOwner } from './lock-owner.js';

export { lockPathFor } from './lock-owner.js';

/** A second server asked for a database that another live process serves (decisions: Storage). */
export class DatabaseInUseError extends Error {
  constructor(
    readonly db: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(
      owner
        ? `${db} is served by another sandbox (pid ${owner.pid}${owner.base_url ? `, ${owner.base_url}` : ''}): stop it first, or use another --db`
        : `${db} is served by another process: stop it first, or use another --db`,
    );
  }
}

export interface DatabaseLock {
  /** Records where the server listens, for whoever finds the lock. */
  publish(baseUrl: string): void;
  release(): void;
}

/**
 * Takes an exclusive lock that dies with this process: an SQLite EXCLUSIVE transaction, held open
 * for the life of the server, on a small file beside the database. The operating system drops it
 * when the process ends in any way (even SIGKILL), so a stale lock cannot exist; a pid file alone
 * could name a process that is gone, or a new one with the same pid.
 * @example const lock = acquireLock('.ledger/sandbox.db-lock', '.ledger/sandbox.db');
 */
export function acquireLock(lockPath: string, db: string): DatabaseLock {
  const handle = new SQLite(lockPath);
  handle.pragma('busy_timeout = 0');
  try {
    handle.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    handle.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(db, readOwner(lockPath));
    throw error;
  }
  const owner: LockOwner = { pid: process.pid, base_url: null, db, started_at: new Date().toISOString() };
  const write = () => writeFileSync(ownerPathFor(lockPath), `${JSON.stringify(owner, null, 2)}\n`, { mode: 0o600 });
  write();
  return {
    publish(baseUrl) {
      owner.base_url = baseUrl;
      write();
    },
    release() {
      rmSync(ownerPathFor(lockPath), { force: true });
      handle.close();
    },
  };
}

/** True when a live process holds the lock (the owner file alone may be stale). */
export function isLocked(lockPath: string): boolean {
  let handle: SQLite.Database | undefined;
  try {
    handle = new SQLite(lockPath, { fileMustExist: true });
    handle.pragma('busy_timeout = 0');
    handle.exec('BEGIN EXCLUSIVE');
    handle.exec('ROLLBACK');
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'SQLITE_BUSY';
  } finally {
    handle?.close();
  }
}
