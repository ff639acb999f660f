import type { Command } from '../../cli/command.js';
import type { Payout } from '../../api/schemas/banks.js';
import type { Transaction } from '../../api/schemas/transactions.js';
import { ApiError, UnsupportedError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';
import { naira } from '../../text/format.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { transactionView } from '../../cli/output/views.js';

export function getCommand(): Command {
  return clientCommand('get')
    .argument('<transaction_id>', 'transaction id')
    .addHelpText('after', examples('ledger transactions get "$TX"', 'ledger transactions get "$TX" --json'))
    .action(action(runGet));
}

export async function runGet(io: Io, transactionId: string): Promise<void> {
  const client = io.client();
  const transaction = await client.request<Transaction>('GET', `/v1/transactions/${encodeURIComponent(transactionId)}`);
  if (io.flags.json || io.flags.quiet || transaction.destination_bank_code === null) {
    await io.show(transaction, transactionView);
    return;
  }
  // A payout's DEBIT, its fee and its reversal name one another for people; --json stays the API's
  // transaction. The links come from the sandbox's provider: a service without it shows none.
  let payout: Payout | undefined;
  try {
    payout = await client.sandbox<Payout>('GET', `/sandbox/transactions/${encodeURIComponent(transaction.id)}/payout`);
  } catch (error) {
    if (!(error instanceof ApiError || error instanceof UnsupportedError)) throw error;
  }
  await io.show(payout ? { ...transaction, ...links(transaction.id, payout) } : transaction, transactionView);
}

/** What a person needs to follow a payout from any of its transactions to the others. */
function links(id: string, payout: Payout): Record<string, string> {
  const back = payout.amount + payout.fee;
  if (id === payout.reversal_transaction_id) {
    return {
      reverses: `${payout.transaction_id} (the FAILED payout of ${payout.amount} (${naira(payout.amount)}) and its ${payout.fee} (${naira(payout.fee)}) fee)`,
    };
  }
  if (id === payout.fee_transaction_id) return { fee_for: `${payout.transaction_id} (the payout, ${payout.status})` };
  return {
    fee_transaction: payout.fee_transaction_id,
    ...(payout.reversal_transaction_id
      ? { reversal: `${payout.reversal_transaction_id} (${back} (${naira(back)}) back to the wallet)` }
      : {}),
    ...(payout.status === 'PENDING'
      ? {
          provider_acts: payout.due_at
            ? `at ${payout.due_at} (sandbox clock)`
            : `only by hand: ledger sandbox payouts settle|fail ${payout.transaction_id}`,
        }
      : {}),
  };
}
