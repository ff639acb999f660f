/**
 * `90`, `90s`, `5m`, `2h`, `1d` → seconds; a number is seconds already. Throws RangeError with a
 * message for people. Shared by `ledger sandbox clock advance` and the in-process API's `advance`.
 * @example parseDuration('5m') // 300
 */
export function parseDuration(duration: string | number): number {
  let seconds = duration as number;
  if (typeof duration === 'string') {
    const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/.exec(duration.trim());
    if (!match) throw new RangeError(`duration "${duration}" must look like 90s, 5m, 2h or 1d`);
    seconds = Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[(match[2] ?? 's') as 's'];
  }
  if (!(seconds > 0) || !Number.isFinite(seconds)) throw new RangeError('duration must be greater than zero');
  return seconds;
}
