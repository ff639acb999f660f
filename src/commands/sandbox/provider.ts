import { Command } from 'commander';
import type { Transaction } from '../../api/schemas/transactions.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples, positiveInt } from '../options.js';
import { pageQuery, type PageFlags, withPaging } from '../paging.js';
import { magicView, receiverEventsView, transactionView, type View } from '../output/views.js';

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

export function receiverCommand(): Command {
  const receiver = new Command('receiver')
    .description("The sandbox's built-in webhook receiver: what it got, and failures to inject")
    .addHelpText('after', examples('ledger sandbox receiver fail --status 500 --times 3', 'ledger sandbox receiver events', 'ledger sandbox receiver reset'));
  receiver.addCommand(
    clientCommand('fail')
      .description('Answer the next deliveries with an error status')
      .option('--status <code>', 'HTTP status to answer (200-599; 410 makes the delivery DEAD)', '500')
      .option('--times <n>', 'how many deliveries', '1')
      .addHelpText('after', examples('ledger sandbox receiver fail --status 500 --times 3', 'ledger sandbox receiver fail --status 410'))
      .action(
        action(async (io: Io, options: { status: string; times: string }) => {
          const body = { status: positiveInt('--status')(options.status), count: positiveInt('--times')(options.times) };
          await io.show(await io.client().sandbox('PUT', '/sandbox/receiver/behaviour', { body }), behaviourView);
        }),
      ),
  );
  receiver.addCommand(
    clientCommand('reset')
      .description('Stop injecting failures: answer 200 again')
      .addHelpText('after', examples('ledger sandbox receiver reset'))
      .action(action(async (io: Io) => io.show(await io.client().sandbox('PUT', '/sandbox/receiver/behaviour', { body: { status: 200, count: 0 } }), behaviourView))),
  );
  receiver.addCommand(
    withPaging(clientCommand('events'))
      .description('What the built-in receiver got, and whether each signature verified')
      .addHelpText('after', examples('ledger sandbox receiver events --desc --limit 5', 'ledger sandbox receiver events --json'))
      .action(action(async (io: Io, options: PageFlags) => io.show(await io.client().sandbox('GET', '/sandbox/receiver/events', { query: pageQuery(options) }), receiverEventsView))),
  );
  return receiver;
}

const behaviourView: View = {
  kind: 'custom',
  quiet: (b: { remaining: number }) => String(b.remaining),
  lines: (b: { status: number; remaining: number }) => [b.remaining > 0 ? `The built-in receiver answers ${b.status} to the next ${b.remaining} deliveries.` : 'The built-in receiver answers 200.'],
};
