import type { Command } from './command.js';
import type { RequestName } from '../api/rules.js';
import { check, type FlagNames, wholeNumber } from '../client/validate.js';

export interface PageFlags {
  page?: string;
  limit?: string;
  desc?: boolean;
}

export function withPaging(command: Command): Command {
  return command
    .option('--page <n>', 'page number', '1')
    .option('--limit <n>', 'items per page, at most 100', '20')
    .option('--desc', 'newest first');
}

/**
 * A list's query: page, limit and order from the flags, plus its filters, checked against that
 * list's query rules (`--limit 1000` or `--status LOST` is exit 2 before any request).
 */
export function listQuery(request: RequestName, flags: PageFlags, filters: Record<string, string | number | undefined> = {}, names: FlagNames = {}) {
  return check(
    request,
    { page: wholeNumber(flags.page ?? '1', '--page'), limit: wholeNumber(flags.limit ?? '20', '--limit'), order: flags.desc ? 'desc' : undefined, ...filters },
    { page: '--page', limit: '--limit', order: '--desc', ...names },
  );
}

/** Every item of a paged list, 100 at a time, stopping at `maxPages` pages. */
export async function fetchAll<T>(fetchPage: (query: { page: number; limit: number }) => Promise<{ items: T[]; total: number }>, maxPages = Infinity): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const batch = await fetchPage({ page, limit: 100 });
    items.push(...batch.items);
    if (page * 100 >= batch.total) break;
  }
  return items;
}
