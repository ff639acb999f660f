/**
 * Terminal safety (decisions: CLI): text that comes from data (narrations, names, response bodies,
 * headers) is shown to people without the means to drive their terminal. Escape sequences (colour,
 * cursor moves, window titles, OSC 8 links, clipboard writes) are removed whole; tabs and line breaks
 * become spaces; every other C0 and C1 control character and the bidirectional overrides that can
 * reorder what a line appears to say are dropped. --json output is never cleaned: it is the data.
 */
const ESCAPES =
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[P^_X][^\u001b]*(?:\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]?|\u009b[0-?]*[ -/]*[@-~]?|\u001b[ -/]*[0-~]?/g;
const BREAKS = /[\t\n\r\v\f]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `clean('\u001b]0;pwned\u0007Rent\nMay')` → `'Rent May'` */
export function clean(text: string): string {
  return text.replace(ESCAPES, '').replace(BREAKS, ' ').replace(CONTROLS, '');
}

/** Every string inside a value, cleaned (objects and arrays are copied, never changed in place). */
export function cleanDeep<T>(value: T): T {
  if (typeof value === 'string') return clean(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanDeep(item)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), cleanDeep(v)])) as T;
  return value;
}
