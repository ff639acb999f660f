import { lagosDayStart, parseInstant } from '../api/period.js';
import { UsageError } from '../client/errors.js';

/**
 * `--since` / `--until` as the API takes them: an ISO 8601 date or date-time goes as given (the
 * server reads it, in Lagos time where it has no zone); `today` and `yesterday` become the start of
 * that day in Lagos on the sandbox clock, read with `now` only when one is used. A value that is
 * none of these is a usage error before any request.
 * @example await periodQuery({ since: 'yesterday' }, readClock) // { since: '2026-11-19T23:00:00.000Z' }
 */
export async function periodQuery(flags: { since?: string; until?: string }, now: () => Promise<number>): Promise<{ since?: string; until?: string }> {
  const query: { since?: string; until?: string } = {};
  let clock: number | undefined;
  for (const name of ['since', 'until'] as const) {
    const text = flags[name]?.trim();
    if (text === undefined) continue;
    const word = text.toLowerCase();
    if (word === 'today' || word === 'yesterday') {
      clock ??= await now();
      const today = lagosDayStart(clock);
      // 24 h back is the day before: Lagos keeps no daylight saving.
      query[name] = new Date(word === 'today' ? today : lagosDayStart(today - 1)).toISOString();
    } else if (parseInstant(text) !== undefined) {
      query[name] = text;
    } else {
      throw new UsageError(`--${name} "${text}" must be today, yesterday, an ISO date (2026-11-21, from 00:00 in Lagos) or date-time (2026-11-21T09:30:00Z)`);
    }
  }
  return query;
}
