import { cleanDeep } from './clean.js';
import { plural } from './format.js';
import { formatter, paint, plain, type RenderOptions, type Stream, widthOf } from './render.js';
import { renderTable } from './table.js';
import type { View } from './views.js';

type ListView = Extract<View, { kind: 'list' }>;

/** A page of a list for people: a table that fits the terminal, and where this page sits in the whole. */
export function renderList(stream: Stream, data: unknown, view: ListView, options: RenderOptions): void {
  const record = cleanDeep(data) as { items: Record<string, unknown>[]; page?: number; limit?: number; total?: number };
  const fmt = formatter(stream, options.env);
  const now = options.now ?? new Date();
  const { items } = record;
  // A cut id cannot be passed to another command: say how to see them whole.
  let idsCut = false;
  const lines =
    items.length === 0
      ? [fmt.dim(view.empty)]
      : renderTable(
          view.columns.map((c) => ({
            label: c.label,
            kind: c.kind ?? 'fixed',
            drop: c.drop,
            cells: items.map((item) => plain(item[c.key], c, now)),
            paint: (text: string, row: number) => paint(text, items[row]![c.key], c, fmt),
          })),
          options.wide ? Infinity : widthOf(stream, options.env),
          { wide: options.wide, head: fmt.bold, idsCut: () => (idsCut = true) },
        );
  const { page = 1, limit = items.length, total } = record;
  if (total !== undefined) {
    const first = items.length ? (page - 1) * limit + 1 : 0;
    const last = first + items.length - (items.length ? 1 : 0);
    lines.push(fmt.dim(`${first}–${last} of ${plural(total, view.noun)} · page ${page}${total > page * limit ? ` (next: --page ${page + 1})` : ''}`));
  }
  if (idsCut) lines.push(fmt.dim('ids shortened to fit: --wide shows them whole'));
  stream.write(`${lines.join('\n')}\n`);
}
