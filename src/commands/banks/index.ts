import { Command } from 'commander';
import type { Bank, ResolvedAccount } from '../../api/schemas/banks.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { bankListView, resolvedAccountView } from '../output/views.js';

export function banksCommand(): Command {
  return new Command('banks')
    .description('Banks for outbound transfers, and name enquiry')
    .addCommand(
      clientCommand('list')
        .description('List the banks you can send to, with their codes')
        .option('-s, --search <text>', 'only banks whose name or code contains this')
        .addHelpText('after', examples('ledger banks list', 'ledger banks list --search kuda', 'ledger banks list --json'))
        .action(action(runList)),
    )
    .addCommand(
      clientCommand('resolve')
        .description('Name enquiry: the account name behind an account number at a bank')
        .argument('<account_number>', '10-digit account number')
        .argument('<bank_code>', 'bank code from `ledger banks list`')
        .addHelpText('after', examples('ledger banks resolve 0123456789 058', 'ledger banks resolve 1111111111 044 --json'))
        .action(action(runResolve)),
    )
    .addHelpText('after', examples('ledger banks list --search gt', 'ledger banks resolve 0123456789 058'));
}

/** `--search` narrows the list on this side; `--json` prints the same `{ items }` shape, narrowed. */
export async function runList(io: Io, options: { search?: string }): Promise<void> {
  const data = await io.client().request<{ items: Bank[] }>('GET', '/v1/banks');
  const needle = options.search?.toLowerCase();
  const items = needle ? data.items.filter((b) => b.name.toLowerCase().includes(needle) || b.code.includes(needle)) : data.items;
  await io.show({ items }, bankListView);
}

export async function runResolve(io: Io, accountNumber: string, bankCode: string): Promise<void> {
  const resolved = await io.client().request<ResolvedAccount>('POST', '/v1/banks/resolve', {
    body: { account_number: accountNumber, bank_code: bankCode },
  });
  await io.show(resolved, resolvedAccountView);
}
