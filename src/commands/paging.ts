import type { Command } from 'commander';
import { positiveInt } from './options.js';

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

export function pageQuery(flags: PageFlags) {
  return {
    page: positiveInt('--page')(flags.page ?? '1'),
    limit: positiveInt('--limit')(flags.limit ?? '20'),
    order: flags.desc ? 'desc' : undefined,
  };
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
