import type { Command } from '../command.js';
import type { Io } from '../io.js';
import { action, sandboxCommand, examples } from '../options.js';
import { receiverEventsView } from '../output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../paging.js';

export function eventsCommand(): Command {
  return withPaging(sandboxCommand('events'))
    .addHelpText('after', examples('ledger sandbox receiver events --desc --limit 5', 'ledger sandbox receiver events --json'))
    .action(
      action(async (io: Io, options: PageFlags) => {
        await showList(io, options, listQuery('ReceiverEventsQuery', options), (q) => io.client().sandbox('GET', '/sandbox/receiver/events', { query: q }), receiverEventsView);
      }),
    );
}
