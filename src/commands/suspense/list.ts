import type { Command } from '../../cli/command.js';
import { choicesOf } from '../../client/validate.js';
import { FILTER_FLAGS, type FilterFlags, readFilters, withFilters } from '../../cli/filters.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../../cli/options.js';
import { suspenseListView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';
import { listPages } from '../../cli/remote.js';

export function listCommand(): Command {
  return withFilters(withPaging(clientCommand('list')), 'SuspenseListQuery', { wallet: true, payment: true })
    .addOption(
      enumOption('--reason <reason>', 'only items held for this reason', choicesOf('SuspenseListQuery', 'reason')),
    )
    .addHelpText(
      'after',
      examples(
        'ledger suspense list --status PENDING,FLAGGED',
        'ledger suspense list --reason AI_RISK_FLAG --json',
        'ledger suspense list --sender "obi ada" --amount 700000 --since yesterday',
      ),
    )
    .action(action(runList));
}

/** Oldest first unless --desc: the open queue (`--status PENDING,FLAGGED`) is worked from the item that has waited longest. */
export async function runList(io: Io, options: PageFlags & FilterFlags & { reason?: string }): Promise<void> {
  const filters = readFilters('SuspenseListQuery', options);
  const query = {
    ...listQuery(
      'SuspenseListQuery',
      options,
      { reason: options.reason?.toUpperCase(), ...filters.query },
      FILTER_FLAGS,
    ),
    ...(await filters.times(io)),
  };
  await showList(io, options, query, await listPages(io, '/v1/suspense', query), suspenseListView);
}
