import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';

/**
 * The offset is what the developer's advances add up to: ahead of real time on a real clock, but of
 * where a manual clock started (--seed, --clock-start), far from real time, so it says neither.
 */
export const clockView: View = {
  kind: 'custom',
  quiet: (c: { now: string }) => c.now,
  lines: (c: { now: string; offset_seconds: number }, fmt) => [
    `${c.now}  ${fmt.dim(c.offset_seconds === 0 ? '(never advanced)' : `(advanced ${c.offset_seconds} s in all)`)}`,
  ],
};

export function clockCommand(): Command {
  return sandboxCommand('clock')
    .addHelpText('after', examples('ledger sandbox clock', 'ledger sandbox clock advance 5m'))
    .action(action(async (io: Io) => io.show(await io.client().sandbox('GET', '/sandbox/clock'), clockView)));
}
