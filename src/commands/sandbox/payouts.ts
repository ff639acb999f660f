import type { Command } from '../../cli/command.js';
import type { Transaction } from '../../api/schemas/transactions.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { transactionView } from '../../cli/output/views.js';

function outcomeCommand(outcome: 'settle' | 'fail'): Command {
  return sandboxCommand(outcome)
    .argument('<transaction_id>', 'the payout DEBIT transaction id (what `ledger transfer` printed)')
    .addHelpText('after', examples(`ledger sandbox payouts ${outcome} "$TX"`))
    .action(
      action(async (io: Io, transactionId: string) => {
        const row = await io
          .client()
          .sandbox<Transaction>('POST', `/sandbox/payouts/${encodeURIComponent(transactionId)}/${outcome}`);
        await io.show(row, transactionView);
      }),
    );
}

export const settleCommand = () => outcomeCommand('settle');
export const failCommand = () => outcomeCommand('fail');
