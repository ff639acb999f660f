import type { Io } from './io.js';
import { readTime, sandboxClock } from './filters.js';

/**
 * A report's `--since` / `--until`, read as the lists' time flags are (an ISO date or time, Lagos
 * time without a zone, `today`, `yesterday`, `24h`; see readTime), with one difference: the
 * report's period ends before `--until`, so a day given there is where the period stops (`--since
 * yesterday --until today` is yesterday). The sandbox clock is read only when a value needs it.
 * @example await periodQuery(io, { since: 'yesterday' }) // { since: '2026-11-19T23:00:00.000Z' }
 */
export async function periodQuery(
  io: Io,
  flags: { since?: string; until?: string },
): Promise<{ since?: string; until?: string }> {
  const since = flags.since === undefined ? undefined : readTime(flags.since, '--since', 'start');
  const until = flags.until === undefined ? undefined : readTime(flags.until, '--until', 'start');
  const relative = since?.relative
    ? `--since "${flags.since}"`
    : until?.relative
      ? `--until "${flags.until}"`
      : undefined;
  const clock = relative ? await sandboxClock(io, relative) : new Date(0);
  return {
    ...(since ? { since: since.at(clock).toISOString() } : {}),
    ...(until ? { until: until.at(clock).toISOString() } : {}),
  };
}
