import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { agentListView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';
import { listPages } from '../../cli/remote.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .option('--wallet <wallet_id>', 'only the agents on this wallet')
    .addHelpText('after', examples('ledger agents list', 'ledger agents list --wallet "$W" --json'))
    .action(action(runList));
}

export async function runList(io: Io, options: PageFlags & { wallet?: string }): Promise<void> {
  const query = listQuery('AgentListQuery', options, { wallet_id: options.wallet }, { wallet_id: '--wallet' });
  await showList(io, options, query, await listPages(io, '/v1/agents', query), agentListView);
}
