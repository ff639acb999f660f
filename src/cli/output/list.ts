import { cleanDeep } from '../../text/clean.js';
import { listed, plural } from '../../text/format.js';
import { formatter, paint, plain, type RenderOptions, type Stream } from './render.js';
import { widthOf } from '../../text/wrap.js';
import type { Formatter } from './views.js';
import { listItems } from './rows.js';
import { displayWidth, renderTable, type TableColumn } from './table.js';
import type { View } from './views.js';

type ListView = Extract<View, { kind: 'list' }>;

/** A page of a list for people: a table that fits the terminal, and where this page sits in the whole. */
export function renderList(stream: Stream, data: unknown, view: ListView, options: RenderOptions): void {
  const record = cleanDeep(data) as { items: Record<string, unknown>[]; page?: number; limit?: number; total?: number };
  const fmt = formatter(stream, options.env);
  const now = options.now ?? new Date();
  const items = listItems(record, view);
  const width = options.wide ? Infinity : widthOf(stream, options.env);
  // A cut id cannot be passed to another command, and a column left out is not seen at all: say so,
  // and how to see the whole table.
  let cut: { ids: boolean; dropped: string[] } = { ids: false, dropped: [] };
  const columns = view.columns.map((c) => ({
    label: c.label,
    kind: c.kind ?? (c.format === 'money' ? ('money' as const) : ('fixed' as const)),
    drop: c.drop,
    keepConstant: c.keepConstant || c.format === 'age' || c.format === 'time',
    cells: items.map((item) => plain(item[c.key], c, now)),
    paint: (text: string, row: number) => paint(text, items[row]![c.key], c, fmt),
  }));
  const whole = () => displayWidth(renderTable(columns, Infinity)[0]!) <= width;
  const lines =
    items.length === 0
      ? [fmt.dim(view.empty)]
      : view.records && !whole()
        ? records(view, columns, fmt, view.records.title)
        : renderTable(columns, width, { wide: options.wide, head: fmt.bold, cut: (what) => (cut = what) });
  const { page = 1, limit = items.length, total } = record;
  if (total !== undefined) {
    const first = items.length ? (page - 1) * limit + 1 : 0;
    const last = first + items.length - (items.length ? 1 : 0);
    // What comes next is said on stderr (paging.ts), for a pipe as for a terminal.
    lines.push(fmt.dim(`${first}–${last} of ${plural(total, view.noun)} · page ${page}`));
  }
  if (cut.dropped.length === 0 && cut.ids) lines.push(fmt.dim('ids shortened to fit: --wide shows them whole'));
  else if (cut.dropped.length > 0) {
    const named = `${cut.ids ? 'ids shortened, ' : ''}${listed(cut.dropped)} left out to fit: --wide shows all`;
    lines.push(
      fmt.dim(
        named.length <= width ? named : `${cut.ids ? 'ids shortened, ' : ''}columns left out to fit: --wide shows all`,
      ),
    );
  }
  stream.write(`${lines.join('\n')}\n`);
}

/** Each item as a title line and its other columns' labels and values, wrapped to the terminal (views' `records`). */
function records(view: ListView, columns: TableColumn[], fmt: Formatter, title: string[]): string[] {
  const heads = columns.filter((_, i) => title.includes(view.columns[i]!.key));
  const body = columns.filter((c) => !heads.includes(c));
  const labelWidth = Math.max(...body.map((c) => displayWidth(c.label)));
  return columns[0]!.cells.flatMap((_, row) => [
    ...(row > 0 ? [''] : []),
    heads.map((c) => c.paint!(c.cells[row]!, row)).join('  '),
    ...body
      .filter((c) => c.cells[row] !== '—')
      .flatMap((c) =>
        fmt.wrap(`  ${fmt.dim(c.label.padEnd(labelWidth))}  ${c.paint!(c.cells[row]!, row)}`, labelWidth + 4),
      ),
  ]);
}
