import type { Command } from '../command.js';
import { choicesOf } from '../../client/validate.js';
import type { Io } from '../io.js';
import { action, clientCommand, enumOption, examples } from '../options.js';
import { transactionListView } from '../output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../paging.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .argument('<wallet_id>', 'wallet id')
    .addOption(enumOption('--type <type>', 'only credits or only debits', choicesOf('TransactionListQuery', 'type')))
    .addHelpText('after', examples('ledger transactions list "$WALLET"', 'ledger transactions list "$WALLET" --type DEBIT --desc --limit 5 --json'))
    .action(action(runList));
}

export async function runList(io: Io, walletId: string, options: PageFlags & { type?: string }): Promise<void> {
  const query = listQuery('TransactionListQuery', options, { type: options.type?.toUpperCase() });
  await showList(io, options, query, (q) => io.client().request('GET', `/v1/wallets/${encodeURIComponent(walletId)}/transactions`, { query: q }), transactionListView);
}
