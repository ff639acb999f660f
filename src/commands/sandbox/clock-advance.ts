import type { Command } from '../../cli/command.js';
import { check, inFlagTerms } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples, parseDuration } from '../../cli/options.js';
import { clockView } from './clock.js';

/**
 * An advance whose answer never came back (the sandbox died during its walk) has most likely moved
 * the clock: the move commits before the walk begins. Repeated as it is, it moves the clock again.
 */
const BEFORE_REPEATING =
  'look before you repeat it (`ledger sandbox clock` shows whether the clock moved); an advance repeated with the same --idempotency-key moves the clock once';

export function advanceCommand(): Command {
  return sandboxCommand('advance')
    .argument('<duration>', 'how far: 90s, 5m, 2h, 1d')
    .option('--idempotency-key <key>', 'replay instead of moving the clock again on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger sandbox clock advance 90s',
        'ledger sandbox clock advance 2h --json',
        'ledger sandbox clock advance 2d --idempotency-key ci-day-2',
      ),
    )
    .action(action(runAdvance));
}

export async function runAdvance(io: Io, duration: string, options: { idempotencyKey?: string }): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  const flags = { seconds: '<duration>' };
  const body = check('ClockAdvanceBody', { seconds: parseDuration(duration) }, flags);
  // A refusal the client cannot foresee (past the latest time a clock reaches) names <duration> too.
  const moved = await io
    .client()
    .sandbox('POST', '/sandbox/clock/advance', {
      body,
      idempotencyKey: options.idempotencyKey,
      beforeRepeating: BEFORE_REPEATING,
    })
    .catch((error: unknown) => {
      throw inFlagTerms(error, flags);
    });
  await io.show(moved, clockView);
}
