import type { Command } from '../command.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import type { View } from '../output/views.js';

export const clockView: View = {
  kind: 'custom',
  quiet: (c: { now: string }) => c.now,
  lines: (c: { now: string; offset_seconds: number }, fmt) => [`${c.now}  ${fmt.dim(`(${c.offset_seconds} s ahead of real time)`)}`],
};

export function clockCommand(): Command {
  return clientCommand('clock')
    .addHelpText('after', examples('ledger sandbox clock', 'ledger sandbox clock advance 5m'))
    .action(action(async (io: Io) => io.show(await io.client().sandbox('GET', '/sandbox/clock'), clockView)));
}
