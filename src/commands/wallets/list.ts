import type { Command } from '../../cli/command.js';
import type { Wallet } from '../../api/schemas/wallets.js';
import { choicesOf } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../../cli/options.js';
import { walletListView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .addOption(enumOption('--status <status>', 'only wallets with this status', choicesOf('WalletListQuery', 'status')))
    .option('--customer-reference <ref>', 'only the wallet with this customer reference')
    .addHelpText('after', examples('ledger wallets list', 'ledger wallets list --status CLOSED --json'))
    .action(action(runList));
}

export async function runList(
  io: Io,
  options: PageFlags & { status?: string; customerReference?: string },
): Promise<void> {
  const query = listQuery('WalletListQuery', options, {
    status: options.status?.toUpperCase(),
    customer_reference: options.customerReference,
  });
  await showList(
    io,
    options,
    query,
    (q) => io.client().sandbox<{ items: Wallet[] }>('GET', '/sandbox/wallets', { query: q }),
    walletListView,
  );
}
