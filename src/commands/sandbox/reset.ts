import type { Command } from '../../cli/command.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { confirm } from '../../cli/prompts.js';

/** A reset removes whatever is there when it runs, so a repeat does no harm: what the user needs is to know it is safe. */
const BEFORE_REPEATING =
  'a reset repeated does no harm (it removes whatever your sandbox holds when it runs): `ledger wallets list` shows whether the first one did';

export function resetCommand(): Command {
  return sandboxCommand('reset').addHelpText('after', examples('ledger sandbox reset --yes')).action(action(runReset));
}

export async function runReset(io: Io, options: { yes?: boolean }): Promise<void> {
  // Deleting everything is the one thing a script must say it means: without a terminal, --yes or nothing.
  if (!options.yes && !io.interactive())
    throw new UsageError(
      'sandbox reset deletes all your wallets and money: pass --yes to confirm (no terminal to ask on)',
    );
  if (
    !(await confirm(io, `Delete all wallets and transactions in the sandbox at ${io.config().baseUrl}?`, options.yes))
  ) {
    throw new UsageError('reset cancelled: nothing was changed');
  }
  const result = await io
    .client()
    .sandbox<{ removed: Record<string, number> }>('POST', '/sandbox/reset', { beforeRepeating: BEFORE_REPEATING });
  await io.show(result, {
    kind: 'custom',
    quiet: () => 'reset',
    lines: (r: { removed: Record<string, number> }, fmt) => [
      fmt.green('Sandbox reset.'),
      fmt.dim(
        `Removed ${Object.entries(r.removed)
          .map(([k, v]) => fmt.plural(v, k.replace(/_/g, ' ')))
          .join(', ')}.`,
      ),
    ],
  });
}
