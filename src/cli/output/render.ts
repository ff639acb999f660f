import { bankName } from '../../engine/banks/banks.js';
import { cleanDeep } from '../../text/clean.js';
import { colourFor, money, moneyInText, plural, status } from '../../text/format.js';
import { quietText } from './quiet.js';
import type { Field, Formatter, View } from './views.js';
import { type Stream, widthOf, wrap } from '../../text/wrap.js';

export type { Stream };

export interface RenderOptions {
  quiet: boolean;
  /** Full ids and text in tables, whatever the width. */
  wide?: boolean;
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
  const width = widthOf(stream, env);
  return {
    money,
    moneyText: moneyInText,
    plural,
    bank: bankName,
    status: (value) => status(value, c),
    width,
    wrap: (line, hang) => wrap(line, width, hang),
    ...c,
  };
}

/** A value as plain text for a person (colour, where there is any, is added by `paint`). */
export function plain(value: unknown, field: Field, now: Date): string {
  if (value === null || value === undefined || value === '') return '—';
  switch (field.format) {
    case 'age':
      return age(String(value), now);
    case 'time':
      return String(value)
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '');
    case 'intelligence': {
      const ai = value as {
        extracted_intent: string;
        suggested_label: string;
        confidence_score: number;
        flags: string[];
      };
      return `${ai.extracted_intent} (${ai.suggested_label}), confidence ${ai.confidence_score}${ai.flags.length ? `, flags ${ai.flags.join(', ')}` : ''}`;
    }
    case 'money':
      return money(value as number);
    case 'moneyText':
      return moneyInText(String(value));
    case 'amounts':
      return moneyInText(String(value), true);
    case 'bool':
      return value ? (field.yes ?? 'yes') : (field.no ?? 'no');
    case 'bank':
      return bankName(String(value));
    default:
      return String(value);
  }
}

export function paint(text: string, value: unknown, field: Field, fmt: Formatter): string {
  if (value === null || value === undefined || value === '') return fmt.dim(text);
  switch (field.format) {
    case 'status':
      return fmt.status(text);
    case 'type':
      return value === 'CREDIT' ? fmt.green(text) : fmt.yellow(text);
    case 'bool':
      return value ? text : fmt.red(text);
    default:
      return text;
  }
}

/**
 * Prints a record or a view's own lines for people; with --quiet only the id. Every string from the
 * data is cleaned of control characters and escape sequences first. Lists go through list.ts.
 */
export function render(stream: Stream, data: unknown, view: View, options: RenderOptions): void {
  if (options.quiet) {
    stream.write(quietText(data, view));
    return;
  }
  if (view.kind === 'list') throw new Error('a list view is rendered by output/list.js');
  const record = cleanDeep(data) as Record<string, unknown>;
  const fmt = formatter(stream, options.env);
  const now = options.now ?? new Date();
  let lines: string[];
  if (view.kind === 'custom') {
    // A view lays out its own lines, continuing a value under itself where it knows how (fmt.wrap);
    // any line still wider than the terminal continues at its own indent.
    lines = view
      .lines(record, fmt)
      .flatMap((line) => line.split('\n'))
      .flatMap((line) => fmt.wrap(line));
  } else {
    const fields = view.fields.filter((f) => f.key in record && (!f.when || f.when(record)));
    const width = Math.max(...fields.map((f) => f.label.length));
    lines = fields.flatMap((f) =>
      fmt.wrap(
        `${fmt.dim(f.label.padEnd(width))}  ${paint(plain(record[f.key], f, now), record[f.key], f, fmt)}`,
        width + 2,
      ),
    );
  }
  stream.write(`${lines.join('\n')}\n`);
}
