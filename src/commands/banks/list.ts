import type { Command } from '../command.js';
import type { Bank } from '../../api/schemas/banks.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { bankListView } from '../output/views.js';

export function listCommand(): Command {
  return clientCommand('list')
    .option('-s, --search <text>', 'only banks whose name or code contains this')
    .addHelpText('after', examples('ledger banks list', 'ledger banks list --search kuda', 'ledger banks list --json'))
    .action(action(runList));
}

/** `--search` narrows the list on this side; `--json` prints the same `{ items }` shape, narrowed. */
export async function runList(io: Io, options: { search?: string }): Promise<void> {
  const data = await io.client().request<{ items: Bank[] }>('GET', '/v1/banks');
  const needle = options.search?.toLowerCase();
  const items = needle ? data.items.filter((b) => b.name.toLowerCase().includes(needle) || b.code.includes(needle)) : data.items;
  await io.show({ items }, bankListView);
}
