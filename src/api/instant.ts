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
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!) || hour! > 23 || minute! > 59 || second! > 59) return undefined;
  const zone = m[8]!;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The form parseInstant reads, as a pattern (the OpenAPI document and the command line's rules show it). */
export const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$';
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar day `YYYY-MM-DD` that exists, as the epoch milliseconds of its midnight in UTC; else undefined. */
export function parseDay(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return Date.UTC(year, month - 1, day);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
