import type { Command } from '../../cli/command.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { receiverEventsView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';

export function eventsCommand(): Command {
  return withPaging(sandboxCommand('events'))
    .addHelpText(
      'after',
      examples('ledger sandbox receiver events --desc --limit 5', 'ledger sandbox receiver events --json'),
    )
    .action(
      action(async (io: Io, options: PageFlags) => {
        await showList(
          io,
          options,
          listQuery('ReceiverEventsQuery', options),
          (q) => io.client().sandbox('GET', '/sandbox/receiver/events', { query: q }),
          receiverEventsView,
        );
      }),
    );
}
