import type { Command } from 'commander';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { transactionListView } from '../output/views.js';
import { pageQuery, type PageFlags, withPaging } from '../paging.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .description('List the ledger transactions of a wallet, oldest first')
    .argument('<wallet_id>', 'wallet id')
    .option('--type <type>', 'CREDIT or DEBIT')
    .addHelpText('after', examples('ledger transactions list "$WALLET"', 'ledger transactions list "$WALLET" --type DEBIT --desc --limit 5 --json'))
    .action(action(runList));
}

export async function runList(io: Io, walletId: string, options: PageFlags & { type?: string }): Promise<void> {
  const type = options.type?.toUpperCase();
  if (type !== undefined && type !== 'CREDIT' && type !== 'DEBIT') throw new UsageError('--type must be CREDIT or DEBIT');
  const page = await io.client().request<{ items: unknown[] }>('GET', `/v1/wallets/${encodeURIComponent(walletId)}/transactions`, {
    query: { ...pageQuery(options), type },
  });
  await io.show(page, transactionListView);
}
