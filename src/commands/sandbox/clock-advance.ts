import type { Command } from '../command.js';
import { check } from '../../client/validate.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples, parseDuration } from '../options.js';
import { clockView } from './clock.js';

export function advanceCommand(): Command {
  return clientCommand('advance')
    .argument('<duration>', 'how far: 90s, 5m, 2h, 1d')
    .addHelpText('after', examples('ledger sandbox clock advance 90s', 'ledger sandbox clock advance 2h --json'))
    .action(action(runAdvance));
}

export async function runAdvance(io: Io, duration: string): Promise<void> {
  const body = check('ClockAdvanceBody', { seconds: parseDuration(duration) }, { seconds: '<duration>' });
  await io.show(await io.client().sandbox('POST', '/sandbox/clock/advance', { body }), clockView);
}
