import type { Command } from 'commander';
import type { Wallet } from '../../api/schemas/wallets.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { walletListView } from '../output/views.js';
import { pageQuery, type PageFlags, withPaging } from '../paging.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .description("List your wallets (sandbox only: the interface document has no list endpoint)")
    .option('--status <status>', 'ACTIVE or CLOSED')
    .option('--customer-reference <ref>', 'only the wallet with this customer reference')
    .addHelpText('after', examples('ledger wallets list', 'ledger wallets list --status CLOSED --json'))
    .action(action(runList));
}

export async function runList(io: Io, options: PageFlags & { status?: string; customerReference?: string }): Promise<void> {
  const status = options.status?.toUpperCase();
  if (status !== undefined && status !== 'ACTIVE' && status !== 'CLOSED') throw new UsageError('--status must be ACTIVE or CLOSED');
  const page = await io.client().sandbox<{ items: Wallet[] }>('GET', '/sandbox/wallets', {
    query: { ...pageQuery(options), status, customer_reference: options.customerReference },
  });
  await io.show(page, walletListView);
}
