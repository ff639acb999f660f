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
