import type { Command } from '../../cli/command.js';
import { check, wholeNumber } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';

const behaviourView: View = {
  kind: 'custom',
  quiet: (b: { remaining: number }) => String(b.remaining),
  lines: (b: { status: number; remaining: number }, fmt) => [
    b.remaining > 0
      ? `The built-in receiver answers ${b.status} to the next ${fmt.plural(b.remaining, 'delivery')}.`
      : 'The built-in receiver answers 200.',
  ],
};

export function failCommand(): Command {
  return sandboxCommand('fail')
    .option('--status <code>', 'HTTP status to answer (200-599; 410 makes the delivery DEAD)', '500')
    .option('--times <n>', 'how many deliveries', '1')
    .addHelpText(
      'after',
      examples('ledger sandbox receiver fail --status 500 --times 3', 'ledger sandbox receiver fail --status 410'),
    )
    .action(
      action(async (io: Io, options: { status: string; times: string }) => {
        const body = check(
          'ReceiverBehaviourBody',
          { status: wholeNumber(options.status, '--status'), count: wholeNumber(options.times, '--times') },
          { status: '--status', count: '--times' },
        );
        await io.show(await io.client().sandbox('PUT', '/sandbox/receiver/behaviour', { body }), behaviourView);
      }),
    );
}

export function resetCommand(): Command {
  return sandboxCommand('reset')
    .addHelpText('after', examples('ledger sandbox receiver reset'))
    .action(
      action(async (io: Io) =>
        io.show(
          await io.client().sandbox('PUT', '/sandbox/receiver/behaviour', { body: { status: 200, count: 0 } }),
          behaviourView,
        ),
      ),
    );
}
