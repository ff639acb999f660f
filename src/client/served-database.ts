import { readFileSync } from 'node:fs';
import { isAlive } from '../engine/processes.js';

/**
 * The pid of the live sandbox whose database is `path`, or one of the files kept beside it (`-wal`,
 * `-shm`, `-journal`, `-lock`), if any: a file a download must not be written over while it serves.
 * Read from the owner file a server writes beside its lock (`<db>-lock.json`, engine/db/sqlite/lock-owner.ts)
 * with the fs alone, so a client command loads no database code.
 * @example servingPid('.ledger/sandbox.db-wal') // 4242 while that sandbox runs
 */
export function servingPid(path: string): number | undefined {
  const database = path.replace(/-(wal|shm|journal|lock|lock\.json)$/, '');
  let pid: unknown;
  try {
    pid = (JSON.parse(readFileSync(`${database}-lock.json`, 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return undefined;
  }
  return typeof pid === 'number' && isAlive(pid) ? pid : undefined;
}
