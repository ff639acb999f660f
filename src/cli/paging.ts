import type { Command } from './command.js';
import type { RequestName } from '../api/rules.js';
import { UsageError } from '../client/errors.js';
import { check, type FlagNames, wholeNumber } from '../client/validate.js';
import { type Io, listFormat } from './io.js';
import { enumOption } from './options.js';
import type { Page } from './remote.js';
import type { View } from './output/views.js';

export interface PageFlags {
  page?: string;
  limit?: string;
  desc?: boolean;
  all?: boolean;
  format?: string;
  json?: boolean;
}

type ListView = Extract<View, { kind: 'list' }>;
type Query = Record<string, string | number | undefined> & { page: number; limit: number };

const FORMATS = ['table', 'tsv', 'csv', 'json'];
/** Page size with --all when --limit is not given: the most a page holds. */
const ALL_LIMIT = 100;

/** `--format table|tsv|csv|json`, on every command that prints a list. */
export function withFormat(command: Command): Command {
  return command.addOption(
    enumOption(
      '--format <format>',
      'table, tsv, csv or json (default: a table on a terminal, tsv for a pipe or a file)',
      FORMATS,
    ),
  );
}

export function withPaging(command: Command): Command {
  return withFormat(
    command
      .option('--page <n>', 'page number', '1')
      .option('--limit <n>', 'items per page, at most 100 (default: 20; 100 with --all)')
      .option('--desc', 'newest first')
      .option('--all', 'every page, one after the other, as one list'),
  );
}

/**
 * A list's query: page, limit and order from the flags, plus its filters, checked against that
 * list's query rules (`--limit 1000` or `--status LOST` is exit 2 before any request).
 */
export function listQuery(
  request: RequestName,
  flags: PageFlags,
  filters: Record<string, string | number | undefined> = {},
  names: FlagNames = {},
): Query {
  if (flags.all && flags.page !== undefined && flags.page !== '1')
    throw new UsageError('--all starts at the first page: leave out --page');
  if (flags.json && flags.format !== undefined && flags.format !== 'json')
    throw new UsageError(`--json and --format ${flags.format} ask for two formats: give one`);
  return check(
    request,
    {
      page: wholeNumber(flags.page ?? '1', '--page'),
      limit: wholeNumber(flags.limit ?? String(flags.all ? ALL_LIMIT : 20), '--limit'),
      order: flags.desc ? 'desc' : undefined,
      ...filters,
    },
    { page: '--page', limit: '--limit', order: '--desc', ...names },
  );
}

/** Every item of a paged list, 100 at a time, stopping at `maxPages` pages. */
export async function fetchAll<T>(
  fetchPage: (query: { page: number; limit: number }) => Promise<{ items: T[]; total: number }>,
  maxPages = Infinity,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const batch = await fetchPage({ page, limit: 100 });
    items.push(...batch.items);
    if (page * 100 >= batch.total) break;
  }
  return items;
}

/** The sandbox clock (it may stand far from real time), or undefined where there is none to ask. */
export async function sandboxClock(io: Io): Promise<{ now: string; offset_seconds: number } | undefined> {
  try {
    return await io.client().request<{ now: string; offset_seconds: number }>('GET', '/sandbox/clock');
  } catch {
    return undefined;
  }
}

/**
 * Prints a list: one page, or with `--all` every page as one list (progress on stderr while a
 * terminal watches). For people and pipes each item with a wallet gets its customer's reference,
 * and a table's ages are on the sandbox clock (asked only for a table). A page that is not the last
 * says so on stderr, never on stdout; with --json or --quiet only when stderr is a terminal, so a
 * script's stderr stays its own. Resolves what was shown, with the clock when it was asked.
 */
export async function showList(
  io: Io,
  flags: PageFlags,
  query: Query,
  fetchPage: (query: Query) => Promise<Page>,
  view: View,
  options: { clock?: boolean } = {},
): Promise<{ items: Record<string, unknown>[]; clock: { now: string; offset_seconds: number } | undefined }> {
  if (view.kind !== 'list') throw new Error('showList prints a list view');
  const format = io.flags.quiet ? 'quiet' : listFormat(io.flags, io.stdout);
  const clock =
    format === 'table' || (options.clock && format !== 'json' && format !== 'quiet')
      ? sandboxClock(io)
      : Promise.resolve(undefined);
  const page = flags.all ? await everyPage(io, query, fetchPage, view.id) : await fetchPage(query);
  let items = page.items;
  if (format !== 'json' && format !== 'quiet')
    items = await withCustomers(
      io,
      items.map((item) => ({ ...item, ...view.derive?.(item) })),
      view,
    );
  const now = await clock;
  await io.show({ ...page, items }, view, now ? { now: new Date(now.now) } : {});
  if (!flags.all && (!(io.flags.json || io.flags.quiet) || io.stderr.isTTY)) {
    const more = notice(page, query);
    if (more) io.stderr.write(`${more}\n`);
  }
  return { items, clock: now };
}

/** "showing 100 of 312; --all or --page 2", or nothing on the last page. */
export function notice(page: Page, query: Query): string | undefined {
  const shown = page.items.length;
  const number = page.page ?? query.page;
  const limit = page.limit ?? query.limit;
  const first = (number - 1) * limit + 1;
  const range = number === 1 ? String(shown) : `${first}–${first + shown - 1}`;
  if (page.total === undefined)
    return shown >= limit ? `showing ${range}; more on --page ${number + 1} or --all` : undefined;
  if (shown === 0 || first + shown - 1 >= page.total) return undefined;
  return `showing ${range} of ${page.total}; --all or --page ${number + 1}`;
}

/**
 * Every page of a list as one page. An item that moved onto a later page while the pages were read
 * (a newer one came in ahead of it, with --desc) is shown once.
 */
async function everyPage(io: Io, query: Query, fetchPage: (query: Query) => Promise<Page>, id: string): Promise<Page> {
  const items: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  let total: number | undefined;
  const progress = io.stderr.isTTY === true;
  for (let number = 1; ; number++) {
    const page = await fetchPage({ ...query, page: number });
    for (const item of page.items) {
      if (seen.has(item[id])) continue;
      seen.add(item[id]);
      items.push(item);
    }
    total = page.total;
    const last = page.items.length < query.limit || (total !== undefined && number * query.limit >= total);
    if (last) break;
    if (progress) io.stderr.write(`\r\u001b[Kfetching… ${items.length}${total === undefined ? '' : ` of ${total}`}`);
  }
  if (progress && items.length > query.limit) io.stderr.write('\r\u001b[K');
  return { items, total: total ?? items.length, page: 1, limit: Math.max(1, items.length) };
}

/**
 * The items with their wallet's customer reference as `customer_reference` (view.customer names the
 * field that holds the wallet id). A few wallets are read one by one; more, from the sandbox's wallet
 * list. A wallet that cannot be read leaves the column empty: the list is still shown.
 */
async function withCustomers(
  io: Io,
  items: Record<string, unknown>[],
  view: ListView,
): Promise<Record<string, unknown>[]> {
  if (!view.customer) return items;
  const ids = new Set(items.map((item) => item[view.customer!]).filter((id): id is string => typeof id === 'string'));
  if (ids.size === 0) return items;
  const customers = new Map<string, string>();
  type Wallet = { id: string; customer_reference: string };
  try {
    if (ids.size <= 10) {
      const wallets = await Promise.all(
        [...ids].map((id) =>
          io
            .client()
            .request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(id)}`)
            .catch(() => undefined),
        ),
      );
      for (const wallet of wallets) if (wallet) customers.set(wallet.id, wallet.customer_reference);
    } else {
      for (let number = 1; number <= 50 && customers.size < ids.size; number++) {
        const page = await io.client().request<{ items: Wallet[]; total: number }>('GET', '/sandbox/wallets', {
          query: { page: number, limit: 100 },
        });
        for (const wallet of page.items) if (ids.has(wallet.id)) customers.set(wallet.id, wallet.customer_reference);
        if (number * 100 >= page.total) break;
      }
    }
  } catch {
    // No sandbox wallet list (a server without the sandbox's controls): the customers stay unknown.
  }
  return items.map((item) => ({ ...item, customer_reference: customers.get(item[view.customer!] as string) ?? null }));
}
