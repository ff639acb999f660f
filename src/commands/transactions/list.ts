import type { Command } from '../../cli/command.js';
import { UsageError } from '../../client/errors.js';
import { choicesOf } from '../../client/validate.js';
import { FILTER_FLAGS, type FilterFlags, readFilters, withFilters } from '../../cli/filters.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../../cli/options.js';
import { transactionListView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';
import { listPages, offers } from '../../cli/remote.js';

export function listCommand(): Command {
  return withFilters(withPaging(clientCommand('list')), 'AllTransactionsQuery', { wallet: true, payment: true })
    .argument('[wallet_id]', 'wallet id (without one, or with --customer: every wallet of yours)')
    .addOption(enumOption('--type <type>', 'only credits or only debits', choicesOf('TransactionListQuery', 'type')))
    .addHelpText(
      'after',
      examples(
        'ledger transactions list "$WALLET"',
        'ledger transactions list "$WALLET" --type DEBIT --desc --limit 5 --json',
        'ledger transactions list --customer ada-001 --since yesterday',
        'ledger transactions list --amount 500000..1000000 --sender "obi ada" --since 7d',
      ),
    )
    .action(action(runList));
}

/**
 * One wallet's transactions (the seed's list) when a wallet is named; every wallet's
 * (`GET /v1/transactions`) when none is, or when a customer is, which names the wallet itself. A
 * server without the list of every wallet's transactions is asked for the wallet's own, with the
 * customer checked here; with no wallet named it is refused, naming the per-wallet list.
 */
export async function runList(
  io: Io,
  walletArgument: string | undefined,
  options: PageFlags & FilterFlags & { type?: string },
): Promise<void> {
  if (walletArgument !== undefined && options.wallet !== undefined && walletArgument !== options.wallet) {
    throw new UsageError(
      `give the wallet once: <wallet_id> "${walletArgument}" and --wallet "${options.wallet}" differ`,
    );
  }
  const walletId = walletArgument ?? options.wallet;
  const oneWallet =
    walletId !== undefined && (options.customer === undefined || !(await offers(io, 'GET', '/v1/transactions')));
  const customerToo = oneWallet && options.customer !== undefined;
  const filters = readFilters('AllTransactionsQuery', {
    ...options,
    wallet: oneWallet && !customerToo ? undefined : walletId,
  });
  const query = {
    ...listQuery(
      oneWallet && !customerToo ? 'TransactionListQuery' : 'AllTransactionsQuery',
      options,
      { type: options.type?.toUpperCase(), ...filters.query },
      FILTER_FLAGS,
    ),
    ...(await filters.times(io)),
  };
  const path = oneWallet ? `/v1/wallets/${encodeURIComponent(walletId)}/transactions` : '/v1/transactions';
  await showList(io, options, query, await listPages(io, path, query), transactionListView);
}
