/**
 * How two values differ, for people: both as indented JSON, line by line, the expected lines marked
 * `-` and the actual ones `+` (as `diff -u` marks the old and the new), with unchanged lines around
 * each change for context.
 */

/** A value shown in a message: JSON, or `(missing)` for a field that is not there. */
export function show(value: unknown): string {
  return value === undefined ? '(missing)' : JSON.stringify(value);
}

const BRIEF = 120;

/** As `show`, cut to a line's worth: for messages whose full values follow (in a diff). */
export function brief(value: unknown): string {
  const text = show(value);
  return text.length > BRIEF ? `${text.slice(0, BRIEF - 1)}…` : text;
}

/** Lines of indented JSON, without the commas that only say another line follows (so `"a": 1,` and `"a": 1` are the same line). */
const jsonLines = (value: unknown) =>
  JSON.stringify(sorted(value), null, 2)
    .split('\n')
    .slice(0, MAX_LINES)
    .map((line) => line.replace(/,$/, ''));

/** Keys sorted at every level, so two objects that are equal print alike. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  return value;
}

const MAX_LINES = 400;
const CONTEXT = 2;

/**
 * `- "b": 2` / `+ "b": 3` lines with two lines of context around each change; undefined when the
 * values are not both objects or arrays (a one-line "expected … got …" says it better).
 */
export function diffValues(expected: unknown, actual: unknown): string | undefined {
  if (!expected || !actual || typeof expected !== 'object' || typeof actual !== 'object') return undefined;
  const a = jsonLines(expected);
  const b = jsonLines(actual);
  // Longest common subsequence, table from the end.
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i++]! });
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      lines.push({ mark: '-', text: a[i++]! });
    else lines.push({ mark: '+', text: b[j++]! });
  }
  const near = (k: number) => lines.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some((line) => line.mark !== ' ');
  const out: string[] = [];
  let skipped = false;
  lines.forEach((line, k) => {
    if (near(k)) {
      if (skipped) out.push('  …');
      skipped = false;
      out.push(`${line.mark} ${line.text}`);
    } else {
      skipped = true;
    }
  });
  if (skipped) out.push('  …');
  return out.join('\n');
}
