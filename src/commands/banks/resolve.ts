import type { Command } from '../../cli/command.js';
import type { ResolvedAccount } from '../../api/schemas/banks.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { resolvedAccountView } from '../../cli/output/views.js';
import { explainNotFound } from './explain.js';

export function resolveCommand(): Command {
  return clientCommand('resolve')
    .argument('<account_number>', '10-digit account number')
    .argument('<bank_code>', 'bank code from `ledger banks list`')
    .addHelpText('after', examples('ledger banks resolve 0123456785 058', 'ledger banks resolve 1111111111 044 --json'))
    .action(action(runResolve));
}

export async function runResolve(io: Io, accountNumber: string, bankCode: string): Promise<void> {
  const body = check(
    'ResolveBody',
    { account_number: accountNumber, bank_code: bankCode },
    { account_number: '<account_number>', bank_code: '<bank_code>' },
  );
  const resolved = await explainNotFound(accountNumber, bankCode, () =>
    io.client().request<ResolvedAccount>('POST', '/v1/banks/resolve', { body }),
  );
  await io.show(resolved, resolvedAccountView);
}
