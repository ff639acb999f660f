/**
 * The day a report's default period and a bare date are read in: Africa/Lagos, where the service's
 * users are. Lagos keeps UTC+1 all year (no daylight saving), so a fixed offset is exact.
 */
export const REPORT_TIME_ZONE = 'Africa/Lagos';
const LAGOS_OFFSET_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The instant (epoch ms) that the Lagos day holding `ms` began. @example lagosDayStart(Date.parse('2026-11-21T23:30:00Z')) // 2026-11-21T23:00:00.000Z */
export function lagosDayStart(ms: number): number {
  return Math.floor((ms + LAGOS_OFFSET_MS) / DAY_MS) * DAY_MS - LAGOS_OFFSET_MS;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * An ISO 8601 date or date-time as epoch ms, or undefined when it is not one. A date is the start of
 * that day in Lagos; a time without `Z` or an offset is Lagos time.
 * @example parseInstant('2026-11-21') // Date.parse('2026-11-20T23:00:00Z')
 */
export function parseInstant(text: string): number | undefined {
  const date = DATE.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // Date.UTC rolls 2026-02-30 over into March: a date that is not on the calendar is refused.
    return new Date(ms).toISOString().startsWith(text) ? ms - LAGOS_OFFSET_MS : undefined;
  }
  const time = DATE_TIME.exec(text);
  if (!time) return undefined;
  const ms = Date.parse(time[1] ? text : `${text}+01:00`);
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse accepts 2026-02-30T10:00Z as 2 March: the calendar date must survive the round trip.
  const local = new Date(ms + (time[1] ? offsetMs(time[1]) : LAGOS_OFFSET_MS)).toISOString();
  return local.slice(0, 10) === text.slice(0, 10) ? ms : undefined;
}

function offsetMs(zone: string): number {
  if (zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
}
