import { clean } from '../../text/clean.js';
import type { Column, View } from './views.js';

/**
 * Lists for programs (a pipe, a file, `--format tsv|csv`), as `gh` prints them: a header line of the
 * API's field names, then one line per item with the values as the API gives them (full ids, amounts
 * in kobo, ISO 8601 times), nothing cut, no box, no colour. Text from data is cleaned as it is for a
 * terminal (decisions: CLI): tabs and line breaks become spaces, control characters go. No table code
 * is loaded.
 */
export type RowsFormat = 'tsv' | 'csv';

/** A list's items with what its view works out for each (`derive`), the API's fields untouched. */
export function listItems(data: unknown, view: Extract<View, { kind: 'list' }>): Record<string, unknown>[] {
  const { items } = data as { items: Record<string, unknown>[] };
  return view.derive ? items.map((item) => ({ ...item, ...view.derive!(item) })) : items;
}

/** The columns a view shows and the items they show, or undefined for a view that is not a list. */
function rowsOf(data: unknown, view: View): { columns: Column[]; items: Record<string, unknown>[] } | undefined {
  if (view.kind === 'list') return { columns: view.columns, items: listItems(data, view) };
  if (view.kind === 'custom' && view.rows)
    return { columns: view.rows, items: (data as { items: Record<string, unknown>[] }).items };
  return undefined;
}

/** A value as one cell's text: objects as JSON, nothing as an empty cell. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return clean(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/**
 * RFC 4180: a field holding a comma, a double quote or a line break is quoted, its quotes doubled.
 * Text that a spreadsheet would run as a formula (`=HYPERLINK(…)` in a sender's narration) starts
 * with an apostrophe, as OWASP advises for CSV.
 */
function csvField(text: string, value: unknown): string {
  const safe = typeof value === 'string' && /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The list as TSV or CSV text, a header line first; undefined for a view that is not a list. */
export function rowsText(data: unknown, view: View, format: RowsFormat): string | undefined {
  const shown = rowsOf(data, view);
  if (!shown) return undefined;
  // A field shown twice for people (an age and a time of one created_at) is one column here.
  const columns = shown.columns.filter((c, i) => shown.columns.findIndex((other) => other.key === c.key) === i);
  const line = (cells: string[]) => (format === 'tsv' ? `${cells.join('\t')}\n` : `${cells.join(',')}\r\n`);
  const field = (value: unknown) => (format === 'tsv' ? cell(value) : csvField(cell(value), value));
  return [
    line(columns.map((c) => field(c.key))),
    ...shown.items.map((item) => line(columns.map((c) => field(item[c.key])))),
  ].join('');
}
