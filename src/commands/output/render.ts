import Table from 'cli-table3';
import { colourFor, money, status } from './format.js';
import type { Field, Formatter, View } from './views.js';

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface RenderOptions {
  json: boolean;
  quiet: boolean;
  env: NodeJS.ProcessEnv;
  /** "Now" for ages: the sandbox clock when known. */
  now?: Date;
}

/** 95 → "1m", 7200 → "2h", 3 days → "3d". */
export function age(from: string, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(from)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

export function formatter(stream: Stream, env: NodeJS.ProcessEnv): Formatter {
  const c = colourFor(stream, env);
  return {
    money: (kobo) => money(kobo),
    status: (value) => status(value, c),
    bold: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    green: (t) => c.green(t),
    red: (t) => c.red(t),
    yellow: (t) => c.yellow(t),
  };
}

function cell(value: unknown, field: Field, fmt: Formatter, now: Date): string {
  if (value === null || value === undefined || value === '') return fmt.dim('—');
  switch (field.format) {
    case 'age':
      return age(String(value), now);
    case 'intelligence': {
      const ai = value as { extracted_intent: string; suggested_label: string; confidence_score: number; flags: string[] };
      return `${ai.extracted_intent} (${ai.suggested_label}), confidence ${ai.confidence_score}${ai.flags.length ? `, flags ${ai.flags.join(', ')}` : ''}`;
    }
    case 'money':
      return fmt.money(value as number);
    case 'status':
      return fmt.status(String(value));
    case 'bool':
      return value ? 'allowed' : fmt.red('disabled');
    case 'type':
      return value === 'CREDIT' ? fmt.green('CREDIT') : fmt.yellow(String(value));
    default:
      return String(value);
  }
}

/**
 * Prints a result: exactly the API `data` as JSON with --json, only the id with --quiet,
 * otherwise a table or record for people.
 */
export function render(stream: Stream, data: unknown, view: View, options: RenderOptions): void {
  if (options.json) {
    stream.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  const record = data as Record<string, unknown>;
  if (options.quiet) {
    let ids: string[];
    if (view.kind === 'list') ids = (record.items as Record<string, unknown>[]).map((item) => String(item[view.id]));
    else if (view.kind === 'record') ids = [String(record[view.id])];
    else ids = view.quiet ? [view.quiet(data)] : [];
    if (ids.length > 0) stream.write(`${ids.join('\n')}\n`);
    return;
  }
  const fmt = formatter(stream, options.env);
  const now = options.now ?? new Date();
  let lines: string[];
  if (view.kind === 'custom') {
    lines = view.lines(data, fmt);
  } else if (view.kind === 'record') {
    const width = Math.max(...view.fields.map((f) => f.label.length));
    lines = view.fields
      .filter((f) => f.key in record)
      .map((f) => `${fmt.dim(f.label.padEnd(width))}  ${cell(record[f.key], f, fmt, now)}`);
  } else {
    const items = record.items as Record<string, unknown>[];
    if (items.length === 0) {
      lines = [fmt.dim(view.empty)];
    } else {
      const table = new Table({
        head: view.columns.map((c) => fmt.bold(c.label)),
        style: { head: [], border: [] },
      });
      for (const item of items) table.push(view.columns.map((c) => cell(item[c.key], c, fmt, now)));
      lines = [table.toString()];
    }
    const page = record.page as number;
    const limit = record.limit as number;
    const total = record.total as number | undefined;
    const first = items.length ? (page - 1) * limit + 1 : 0;
    // Lists without paging (banks, magic accounts) have no footer.
    if (total !== undefined) lines.push(fmt.dim(`${first}–${first + items.length - (items.length ? 1 : 0)} of ${total} · page ${page}${total > page * limit ? ` (next: --page ${page + 1})` : ''}`));
  }
  stream.write(`${lines.join('\n')}\n`);
}
