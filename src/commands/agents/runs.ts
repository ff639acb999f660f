import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { agentRunsView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';

export function runsCommand(): Command {
  return withPaging(clientCommand('runs'))
    .argument('<agent_id>', 'agent id')
    .addHelpText(
      'after',
      examples(
        'ledger agents runs "$AGENT"',
        'ledger agents runs "$AGENT" --wide',
        'ledger agents runs "$AGENT" --json',
      ),
    )
    .action(action(runRuns));
}

export async function runRuns(io: Io, agentId: string, options: PageFlags): Promise<void> {
  const query = listQuery('PageQuery', options);
  await showList(
    io,
    options,
    query,
    (q) => io.client().sandbox('GET', `/sandbox/agents/${encodeURIComponent(agentId)}/runs`, { query: q }),
    agentRunsView,
  );
}
