import { charWidth, displayWidth } from '../../text/wrap.js';

export { displayWidth };

/**
 * Tables that fit the terminal. Cells arrive as plain text; when the natural width is more than the
 * terminal has, ids are shortened to a form unique in the column (`--wide` keeps them whole, see
 * `shortIds`), long text is cut with an ellipsis, and columns are dropped: an empty one first, then
 * one that says the same on every row (as a filter such as `--status PENDING` makes it), then those a
 * view names as least useful. Money is never cut. Colour is applied after cutting, so no escape
 * sequence is ever split.
 */
export interface TableColumn {
  label: string;
  cells: string[];
  /** `id`: shortened (see shortIds); `text`: may be cut with an ellipsis; `fixed`: kept whole while anything else can give; `money`: never cut. */
  kind: 'id' | 'text' | 'fixed' | 'money';
  /** Lower goes first when columns must be dropped; undefined is never dropped. */
  drop?: number;
  /** Kept even when every row says the same (an age: all items of one minute are still that old). */
  keepConstant?: boolean;
  paint?: (text: string, row: number) => string;
}

const ELLIPSIS = '…';
const MIN_ID = 8;
const MIN_SUFFIX = 6;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{12})$/i;
const TEXT_SOFT_MIN = 16;
const TEXT_HARD_MIN = 6;

/** Cuts text to `width` columns, ending in an ellipsis when anything was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return out + ELLIPSIS;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * Ids as people can tell them apart in one table. A UUIDv7 starts with its creation time, so ids
 * made in the same minute share their first ten or so characters; its last 12 hex digits are random.
 * UUIDs are shown as the start of that random part, 6 to 12 hex digits, the fewest that keep every id
 * of the column apart (as git abbreviates hashes; `ledger` takes that form wherever it takes an id). Other ids are cut
 * to their shortest unique prefix, at least 8 characters, followed by an ellipsis. Undefined when
 * nothing would get shorter. Cells without an id ("—") stay as they are.
 * @example shortIds(['0190…-8c1e2f3a4b5c', '0190…-77d09e1f2a3b']) // ['8c1e2f', '77d09e']
 */
export function shortIds(cells: string[]): string[] | undefined {
  const ids = cells.filter((cell) => cell !== '—');
  if (ids.length === 0) return undefined;
  const randoms = ids.map((id) => UUID.exec(id)?.[1]);
  if (randoms.every((random) => random !== undefined)) {
    const distinct = new Set(ids);
    for (let length = MIN_SUFFIX; length <= 12; length++) {
      const short = new Map(ids.map((id, i) => [id, randoms[i]!.slice(0, length).toLowerCase()]));
      if (new Set(short.values()).size === distinct.size) return cells.map((cell) => short.get(cell) ?? cell);
    }
    return undefined;
  }
  const length = uniquePrefix(ids);
  return ids.some((id) => id.length > length)
    ? cells.map((id) => (id.length > length ? `${id.slice(0, length)}${ELLIPSIS}` : id))
    : undefined;
}

/** The shortest prefix length (at least MIN_ID) that keeps every distinct id in the column apart. */
function uniquePrefix(ids: string[]): number {
  const distinct = [...new Set(ids)];
  for (let length = MIN_ID; ; length++) {
    if (distinct.every((id) => id.length <= length)) return length;
    if (new Set(distinct.map((id) => id.slice(0, length))).size === distinct.length) return length;
  }
}

/**
 * Lays the columns out within `maxWidth` columns (Infinity: as wide as they are) and returns the lines.
 * @example renderTable([{ label: 'ID', cells: ['a1'], kind: 'id' }], 80)
 */
export function renderTable(
  input: TableColumn[],
  maxWidth: number,
  options: {
    wide?: boolean;
    head?: (label: string) => string;
    cut?: (what: { ids: boolean; dropped: string[] }) => void;
  } = {},
): string[] {
  let columns = input.map((c) => ({ ...c, cells: [...c.cells] }));
  const natural = (c: TableColumn) => Math.max(displayWidth(c.label), ...c.cells.map(displayWidth));
  let widths = columns.map(natural);
  const total = () => widths.reduce((a, b) => a + b, 0) + 3 * widths.length + 1;

  // Columns whose ids were cut: the caller is told only of those still shown.
  const idsCut = new Set<TableColumn>();
  if (total() > maxWidth && !options.wide) {
    columns.forEach((c, i) => {
      if (c.kind !== 'id') return;
      const short = shortIds(c.cells);
      if (!short) return;
      idsCut.add(c);
      c.cells = short;
      widths[i] = natural(c);
    });
  }
  // The widest text column gives one column at a time, so text columns end up sharing the room evenly.
  const shrinkText = (floor: number) => {
    while (total() > maxWidth) {
      let widest = -1;
      columns.forEach((c, i) => {
        if (
          c.kind === 'text' &&
          widths[i]! > Math.max(floor, displayWidth(c.label)) &&
          (widest < 0 || widths[i]! > widths[widest]!)
        )
          widest = i;
      });
      if (widest < 0) return;
      widths[widest] = widths[widest]! - 1;
    }
  };
  // Columns are dropped, least useful first, only while the table would not fit even with its text
  // cut to a readable length; then the text takes whatever room is left.
  shrinkText(TEXT_SOFT_MIN);
  // A column with nothing in it goes before any other, then one that says the same on every row
  // (ids and money excepted: two payments of one amount are no reason to hide the amount).
  const empty = (c: TableColumn) => c.cells.every((cell) => cell === '—');
  const constant = (c: TableColumn) =>
    c.kind !== 'id' &&
    c.kind !== 'money' &&
    !c.keepConstant &&
    c.cells.length > 1 &&
    c.cells.every((cell) => cell === c.cells[0]);
  const rank = (c: TableColumn) => (empty(c) ? 0 : constant(c) ? 1 : 2);
  const droppable = columns
    .filter((c) => c.drop !== undefined || (constant(c) && c !== columns[0]))
    .sort((a, b) => rank(a) - rank(b) || (a.drop ?? 0) - (b.drop ?? 0));
  const dropped: string[] = [];
  for (const column of droppable) {
    if (total() <= maxWidth) break;
    const at = columns.indexOf(column);
    dropped.push(column.label);
    columns = columns.filter((_, i) => i !== at);
    widths = widths.filter((_, i) => i !== at);
  }
  widths = columns.map((c, i) => (c.kind === 'text' ? natural(c) : widths[i]!));
  shrinkText(TEXT_HARD_MIN);
  // Last resort on a very narrow terminal: everything but money gives, widest first, then the
  // rightmost columns that are not money go.
  const give = () => columns.map((c, i) => (c.kind === 'money' ? 0 : widths[i]!));
  while (total() > maxWidth && Math.max(...give()) > 4) {
    const widest = give().indexOf(Math.max(...give()));
    widths[widest] = widths[widest]! - 1;
  }
  for (let at = columns.length - 1; at > 0 && total() > maxWidth; at--) {
    if (columns[at]!.kind === 'money') continue;
    dropped.push(columns[at]!.label);
    columns = columns.filter((_, i) => i !== at);
    widths = widths.filter((_, i) => i !== at);
  }
  const ids = columns.some((c) => idsCut.has(c));
  if (ids || dropped.length > 0)
    options.cut?.({ ids, dropped: input.map((c) => c.label).filter((label) => dropped.includes(label)) });

  const rule = (left: string, middle: string, right: string) =>
    `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}`;
  const line = (cells: string[]) => `│${cells.map((cell) => ` ${cell} `).join('│')}│`;
  const rows =
    columns[0]?.cells.map((_, row) =>
      line(
        columns.map((c, i) => {
          const text = truncate(c.cells[row]!, widths[i]!);
          const padded = pad(text, widths[i]!);
          return c.paint ? c.paint(text, row) + padded.slice(text.length) : padded;
        }),
      ),
    ) ?? [];
  const head = options.head ?? ((label: string) => label);
  return [
    rule('┌', '┬', '┐'),
    line(columns.map((c, i) => head(pad(truncate(c.label, widths[i]!), widths[i]!)))),
    rule('├', '┼', '┤'),
    ...rows,
    rule('└', '┴', '┘'),
  ];
}
