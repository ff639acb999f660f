import { storageFailure } from '../engine/db/storage-errors.js';

const MINUTE_MS = 60_000;

/**
 * Error logging that cannot fill a disk (decisions: Storage): a storage failure is logged once a minute,
 * as one line, and other errors at most `perMinute` times a minute, with a count of the rest.
 * @example const logError = limitLog((line) => process.stderr.write(`${line}\n`));
 */
export function limitLog(
  write: (line: string) => void,
  perMinute = 20,
  now: () => number = Date.now,
): (error: unknown) => void {
  let windowStart = now();
  let logged = 0;
  let dropped = 0;
  const storageSeen = new Map<string, number>();
  return (error) => {
    const t = now();
    if (t - windowStart >= MINUTE_MS) {
      if (dropped > 0)
        write(`(${dropped} more error${dropped === 1 ? ' was' : 's were'} not logged in the last minute)`);
      windowStart = t;
      logged = 0;
      dropped = 0;
    }
    const storage = storageFailure(error);
    if (storage) {
      if (t - (storageSeen.get(storage.message) ?? -Infinity) < MINUTE_MS) return;
      storageSeen.set(storage.message, t);
      write(`storage: ${storage.message}`);
      return;
    }
    if (logged >= perMinute) {
      dropped += 1;
      return;
    }
    logged += 1;
    write(error instanceof Error ? (error.stack ?? error.message) : String(error));
  };
}
