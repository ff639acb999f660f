import { readFileSync } from 'node:fs';

/** Who serves a database: written beside its lock, read by a second server and by `sandbox stop`. */
export interface LockOwner {
  pid: number;
  base_url: string | null;
  db: string;
  started_at: string;
}

/** The lock file of a database file. */
export const lockPathFor = (path: string) => `${path}-lock`;
export const ownerPathFor = (lockPath: string) => `${lockPath}.json`;

/** What the lock's owner wrote about itself; it may be stale once that process is gone. */
export function readOwner(lockPath: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(ownerPathFor(lockPath), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}
