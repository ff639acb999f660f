import { charWidth, displayWidth } from './wrap.js';

export { displayWidth };

/**
 * Tables that fit the terminal. Cells arrive as plain text; when the natural width is more than the
 * terminal has, ids are cut to the shortest prefix that stays unique in the column (`--wide` keeps
 * them whole), long text is cut with an ellipsis, and the columns a view names as least useful are
 * dropped first. Colour is applied after cutting, so no escape sequence is ever split.
 */
export interface TableColumn {
  label: string;
  cells: string[];
  /** `id`: cut to a unique prefix; `text`: may be cut with an ellipsis; `fixed`: kept whole while anything else can give. */
  kind: 'id' | 'text' | 'fixed';
  /** Lower goes first when columns must be dropped; undefined is never dropped. */
  drop?: number;
  paint?: (text: string, row: number) => string;
}

const ELLIPSIS = '…';
const MIN_ID = 8;
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
  options: { wide?: boolean; head?: (label: string) => string; cut?: (what: { ids: boolean; dropped: string[] }) => void } = {},
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
      const length = uniquePrefix(c.cells);
      if (c.cells.some((id) => id.length > length)) idsCut.add(c);
      c.cells = c.cells.map((id) => (id.length > length ? `${id.slice(0, length)}${ELLIPSIS}` : id));
      widths[i] = natural(c);
    });
  }
  // The widest text column gives one column at a time, so text columns end up sharing the room evenly.
  const shrinkText = (floor: number) => {
    while (total() > maxWidth) {
      let widest = -1;
      columns.forEach((c, i) => {
        if (c.kind === 'text' && widths[i]! > Math.max(floor, displayWidth(c.label)) && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      });
      if (widest < 0) return;
      widths[widest] = widths[widest]! - 1;
    }
  };
  // Columns are dropped, least useful first, only while the table would not fit even with its text
  // cut to a readable length; then the text takes whatever room is left.
  shrinkText(TEXT_SOFT_MIN);
  // A column with nothing in it goes before any other.
  const empty = (c: TableColumn) => c.cells.every((cell) => cell === '—');
  const droppable = columns.filter((c) => c.drop !== undefined).sort((a, b) => Number(empty(b)) - Number(empty(a)) || a.drop! - b.drop!);
  const dropped: string[] = [];
  for (const column of droppable) {
    if (total() <= maxWidth) break;
    const at = columns.indexOf(column);
    dropped.push(column.label);
    columns = columns.filter((_, i) => i !== at);
    widths = widths.filter((_, i) => i !== at);
  }
  const ids = columns.some((c) => idsCut.has(c));
  if (ids || dropped.length > 0) options.cut?.({ ids, dropped: input.map((c) => c.label).filter((label) => dropped.includes(label)) });
  widths = columns.map((c, i) => (c.kind === 'text' ? natural(c) : widths[i]!));
  shrinkText(TEXT_HARD_MIN);
  // Last resort on a very narrow terminal: everything gives, widest first.
  while (total() > maxWidth && Math.max(...widths) > 4) {
    const widest = widths.indexOf(Math.max(...widths));
    widths[widest] = widths[widest]! - 1;
  }

  const rule = (left: string, middle: string, right: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}`;
  const line = (cells: string[]) => `│${cells.map((cell) => ` ${cell} `).join('│')}│`;
  const rows = columns[0]?.cells.map((_, row) =>
    line(columns.map((c, i) => {
      const text = truncate(c.cells[row]!, widths[i]!);
      const padded = pad(text, widths[i]!);
      return c.paint ? c.paint(text, row) + padded.slice(text.length) : padded;
    })),
  ) ?? [];
  const head = options.head ?? ((label: string) => label);
  return [rule('┌', '┬', '┐'), line(columns.map((c, i) => head(pad(truncate(c.label, widths[i]!), widths[i]!)))), rule('├', '┼', '┤'), ...rows, rule('└', '┴', '┘')];
}
