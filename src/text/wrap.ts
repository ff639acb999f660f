/**
 * Prose that fits the terminal: columns a text takes (wide characters count two, colour codes none)
 * and lines broken at spaces. Shared by tables, records, custom views, errors and `--help`.
 */

/** Where output goes: stdout or stderr, or a stand-in in tests. */
export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * How wide a table may be: the terminal's width; for a pipe or a file, COLUMNS when set, else
 * unlimited (the text is for a program or a pager that scrolls sideways).
 */
export function widthOf(stream: Stream, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Infinity;
}

/** Columns a character takes on a terminal: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
export function charWidth(code: number): number {
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200d) || code === 0xfe0f) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** A colour code (SGR): the only escape sequence output ever holds (data is cleaned of the rest). */
const SGR = /\u001b\[[0-9;]*m/y;

/** Columns `text` takes on a terminal; colour codes take none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const [unit, escape] of units(text)) width += escape ? 0 : charWidth(unit.codePointAt(0)!);
  return width;
}

/** The text as characters and whole colour codes (`[code, true]`), so that no code is ever split. */
function* units(text: string): Generator<[string, boolean]> {
  for (let i = 0; i < text.length;) {
    SGR.lastIndex = i;
    const escape = SGR.exec(text);
    if (escape) {
      yield [escape[0], true];
      i += escape[0].length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    yield [char, false];
    i += char.length;
  }
}

/**
 * The words of a line, a command in backticks (`ledger wallets list --wide`) as one: broken across
 * lines, it could not be copied whole. One longer than the room is still broken where the room ends.
 */
function words(text: string): string[] {
  const out: string[] = [];
  let open: string[] | undefined;
  for (const word of text.split(' ')) {
    const ticks = word.split('`').length - 1;
    if (open) {
      open.push(word);
      if (ticks % 2 === 1) {
        out.push(open.join(' '));
        open = undefined;
      }
    } else if (ticks % 2 === 1) open = [word];
    else out.push(word);
  }
  if (open) out.push(...open);
  return out;
}

/**
 * One line broken at spaces into lines of at most `width` columns; the lines after the first start
 * with `hang` spaces (default: the line's own indent), so a value continues under itself. A word
 * longer than the room (a URL) is broken where the room ends. Infinity keeps the line whole.
 * @example wrap('  payout        accepted PENDING, then FAILED …', 40, 16)
 */
export function wrap(line: string, width: number, hang?: number): string[] {
  if (displayWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const continued = ' '.repeat(Math.min(hang ?? indent.length, Math.max(0, width - 10)));
  const lines: string[] = [];
  let current = indent;
  let used = indent.length;
  let empty = true;
  const newLine = () => {
    lines.push(current.trimEnd());
    current = continued;
    used = continued.length;
    empty = true;
  };
  for (const word of words(line.slice(indent.length))) {
    // Spaces that a break left at the start of a line are dropped with it.
    if (word === '' && empty && lines.length > 0) continue;
    const size = displayWidth(word);
    // A word that fits on a line of its own goes there; one that fits on none (a URL) starts here.
    if (!empty && used + 1 + size > width && (size <= width - continued.length || width - used < 12)) newLine();
    if (!empty) {
      current += ' ';
      used += 1;
    }
    for (const [unit, escape] of units(word)) {
      const w = escape ? 0 : charWidth(unit.codePointAt(0)!);
      if (used + w > width && used > continued.length) newLine();
      current += unit;
      used += w;
    }
    empty = false;
  }
  lines.push(current);
  return lines;
}

/**
 * Text for stderr (errors, notes) that fits a terminal: each line broken at spaces and continued two
 * columns in from its own indent, so a message reads as one. A pipe or a file gets it as it is, one
 * line per error, for grep and logs.
 */
export function fitted(stream: Stream, text: string): string {
  if (!stream.isTTY || !stream.columns) return text;
  const width = stream.columns;
  return text
    .split('\n')
    .flatMap((line) => wrap(line, width, /^ */.exec(line)![0].length + 2))
    .join('\n');
}
