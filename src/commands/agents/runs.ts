import type { Command } from '../command.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { agentRunsView } from '../output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../paging.js';

export function runsCommand(): Command {
  return withPaging(clientCommand('runs'))
    .argument('<agent_id>', 'agent id')
    .addHelpText('after', examples('ledger agents runs "$AGENT"', 'ledger agents runs "$AGENT" --wide', 'ledger agents runs "$AGENT" --json'))
    .action(action(runRuns));
}

export async function runRuns(io: Io, agentId: string, options: PageFlags): Promise<void> {
  const query = listQuery('PageQuery', options);
  await showList(io, options, query, (q) => io.client().sandbox('GET', `/sandbox/agents/${encodeURIComponent(agentId)}/runs`, { query: q }), agentRunsView);
}
