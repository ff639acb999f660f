import type { Command } from '../../cli/command.js';
import type { RequestLogEntry } from '../../api/schemas/requests.js';
import type { Io } from '../../cli/io.js';
import { action, examples, sandboxCommand } from '../../cli/options.js';
import { requestLogListView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withFormat } from '../../cli/paging.js';
import { type LogFilterFlags, logQuery, withLogFilters } from './query.js';

export function listCommand(): Command {
  return withFormat(withLogFilters(sandboxCommand('list')))
    .option(
      '--since <when>',
      'only requests from then on: an ISO time, today, yesterday or 24h back, on the sandbox clock',
    )
    .option('--idempotency-key <key>', 'only requests sent with this Idempotency-Key')
    .option('--page <n>', 'page number', '1')
    .option('--limit <n>', 'requests per page, at most 100 (default: 20)')
    .addHelpText(
      'after',
      examples(
        'ledger logs list --status 4xx',
        'ledger logs list --path /v1/wallets --since 1h',
        'ledger logs list --status 422 --json | jq -r ".items[].id"',
      ) +
        '\nNewest first: the time on the sandbox clock, method, path, status, error code, milliseconds and request id.\n',
    )
    .action(action(runList));
}

export async function runList(io: Io, options: PageFlags & LogFilterFlags): Promise<void> {
  const query = listQuery('RequestLogQuery', options, await logQuery(io, options), {
    status: '--status',
    path: '--path',
    since: '--since',
    idempotency_key: '--idempotency-key',
  });
  await showList(
    io,
    options,
    query,
    (q) => io.client().sandbox<{ items: RequestLogEntry[] }>('GET', '/sandbox/requests', { query: q }),
    requestLogListView,
  );
}
