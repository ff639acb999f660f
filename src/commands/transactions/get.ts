import type { Command } from '../command.js';
import type { Transaction } from '../../api/schemas/transactions.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { transactionView } from '../output/views.js';

export function getCommand(): Command {
  return clientCommand('get')
    .argument('<transaction_id>', 'transaction id')
    .addHelpText('after', examples('ledger transactions get "$TX"', 'ledger transactions get "$TX" --json'))
    .action(action(runGet));
}

export async function runGet(io: Io, transactionId: string): Promise<void> {
  const transaction = await io.client().request<Transaction>('GET', `/v1/transactions/${encodeURIComponent(transactionId)}`);
  await io.show(transaction, transactionView);
}
