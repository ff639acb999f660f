/**
 * An ISO 8601 time with its time zone (`2026-01-02T09:30:00Z`, `2026-01-02T10:30:00.5+01:00`) as
 * epoch milliseconds, or undefined when the text is not one or names no real time (February 30th,
 * 24:00). `Date.parse` alone rolls February 30th over into March. Shared by the list filters' schema
 * and the command line, which loads no zod.
 * @example parseInstant('2026-01-02T09:30:00Z') // 1767346200000
 */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  if (
    month! < 1 ||
    month! > 12 ||
    day! < 1 ||
    day! > daysIn(year!, month!) ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59
  )
    return undefined;
  const zone = m[8]!;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The form parseInstant reads, as a pattern (the OpenAPI document and the command line's rules show it). */
export const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$';
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The time zone people's days are read in (a bare date, `today`, `yesterday`, a time without a zone,
 * the report's default period): Africa/Lagos, where the service's users are. Lagos keeps UTC+1 all
 * year (no daylight saving), so a fixed offset is exact.
 */
export const TIME_ZONE = 'Africa/Lagos';
const LAGOS_OFFSET_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The instant (epoch ms) that the Lagos day holding `ms` began. @example lagosDayStart(Date.parse('2026-11-21T23:30:00Z')) // 2026-11-21T23:00:00.000Z */
export function lagosDayStart(ms: number): number {
  return Math.floor((ms + LAGOS_OFFSET_MS) / DAY_MS) * DAY_MS - LAGOS_OFFSET_MS;
}

/** A calendar day `YYYY-MM-DD` that exists, as the epoch milliseconds of its midnight in Lagos; else undefined. */
export function parseDay(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return Date.UTC(year, month - 1, day) - LAGOS_OFFSET_MS;
}

/**
 * What a person types for a time: a bare date (its start, in Lagos), an ISO time with its zone, or
 * one without a zone (Lagos time); undefined when it is none of these.
 * @example parseLocalInstant('2026-11-21T09:30') // Date.parse('2026-11-21T08:30:00Z')
 */
export function parseLocalInstant(text: string): number | undefined {
  return parseDay(text) ?? parseInstant(text) ?? (/T[\d:.]+$/.test(text) ? parseInstant(`${text}+01:00`) : undefined);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
