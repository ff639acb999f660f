import { Command } from 'commander';
import type { Transaction } from '../../api/schemas/transactions.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { magicView, transactionView } from '../output/views.js';

export function magicCommand(): Command {
  return clientCommand('magic')
    .description('The magic external account numbers and what the simulated provider does with each')
    .addHelpText('after', examples('ledger sandbox magic', 'ledger transfer "$W" 1111111111 50000 --bank 058   # fails after the delay, and is reversed'))
    .action(
      action(async (io: Io) => {
        await io.show(await io.client().sandbox('GET', '/sandbox/magic'), magicView);
      }),
    );
}

export function payoutsCommand(): Command {
  const payouts = new Command('payouts')
    .description('Settle or fail a PENDING payout by hand (for 2222222222, or before the delay is up)')
    .addHelpText('after', examples('ledger sandbox payouts settle "$TX"', 'ledger sandbox payouts fail "$TX" --json'));
  for (const outcome of ['settle', 'fail'] as const) {
    payouts.addCommand(
      clientCommand(outcome)
        .description(outcome === 'settle' ? 'Settle it now (transfer.completed)' : 'Fail it now: FAILED, and a reversal of amount + fee (transfer.failed)')
        .argument('<transaction_id>', 'the payout DEBIT transaction id (what `ledger transfer` printed)')
        .addHelpText('after', examples(`ledger sandbox payouts ${outcome} "$TX"`))
        .action(
          action(async (io: Io, transactionId: string) => {
            const row = await io.client().sandbox<Transaction>('POST', `/sandbox/payouts/${encodeURIComponent(transactionId)}/${outcome}`);
            await io.show(row, transactionView);
          }),
        ),
    );
  }
  return payouts;
}
