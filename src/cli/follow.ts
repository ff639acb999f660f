import { UsageError } from '../client/errors.js';

/**
 * What a command that follows something until Ctrl-C (`webhooks tail`, `logs tail`) shares: its
 * `--interval`, a signal that Ctrl-C, SIGTERM or the caller's own signal aborts, and its waits.
 */

/** `--interval` in seconds, from 0.1 to 3600; anything else is a usage error. */
export function followInterval(given: string | undefined, byDefault: string): number {
  const text = given ?? byDefault;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds < 0.1 || seconds > 3600)
    throw new UsageError('--interval must be a number of seconds from 0.1 to 3600');
  return seconds;
}

/**
 * A signal aborted by Ctrl-C, SIGTERM or `outer`, with `release()` to stop listening for the
 * process's signals once the following is done.
 */
export function untilStopped(outer?: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  outer?.addEventListener('abort', stop);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
