import { isPostgresUrl } from './location.js';
import { openSqliteStorage } from './sqlite/sqlite-storage.js';
import { acquireLock, type DatabaseLock, isLocked } from './sqlite/lock.js';
import { lockPathFor } from './owner-file.js';
import type { Storage, StorageOptions } from './storage.js';

export { DatabaseInUseError } from './sqlite/lock.js';
/** Loads the default backend's driver (a native module), so that one built for another Node fails once, up front. */
export { loadDriver } from './sqlite/open.js';

/**
 * Opens the storage at `options.location` with the backend it names (a postgres:// URL:
 * PostgreSQL; a file path or ':memory:': SQLite), migrated to this version's schema.
 * @example const storage = await openStorage({ location: ':memory:' });
 */
export function openStorage(options: StorageOptions): Promise<Storage> {
  // The PostgreSQL driver loads only for a sandbox that uses it.
  if (isPostgresUrl(options.location))
    return import('./postgres/postgres-storage.js').then((backend) => backend.openPostgresStorage(options));
  return openSqliteStorage(options);
}

/** A server's hold on its database for its life (decisions: Storage): `publish` says where it listens. */
export type DatabaseClaim = DatabaseLock;

/**
 * Keeps a second server away from the data at `location` for this server's life, one database, one
 * server (decisions: Storage), through the lock at `lockPath` (default: beside a database file;
 * none for ':memory:' or a PostgreSQL database, whose caller may name one, as `sandbox start` does
 * in its state directory, where `stop` finds it). The lock dies with the process. Throws
 * DatabaseInUseError when another live process holds it. `location` is written beside the lock: a
 * PostgreSQL URL is given without its password.
 * @example const claim = claimDatabase('.ledger/sandbox.db'); claim?.publish(baseUrl);
 */
export function claimDatabase(location: string, lockPath?: string): DatabaseClaim | undefined {
  // Any number of servers share one PostgreSQL database: a lock there is only the state directory's.
  const path = lockPath ?? (location === ':memory:' || isPostgresUrl(location) ? undefined : lockPathFor(location));
  return path ? acquireLock(path, location) : undefined;
}

/** True when a live process holds the lock at `lockPath` (the owner file beside it alone may be stale). */
export const isClaimed = (lockPath: string): boolean => isLocked(lockPath);
