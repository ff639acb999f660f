import type { Command } from '../command.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { receiverEventsView } from '../output/views.js';
import { listQuery, type PageFlags, withPaging } from '../paging.js';

export function eventsCommand(): Command {
  return withPaging(clientCommand('events'))
    .addHelpText('after', examples('ledger sandbox receiver events --desc --limit 5', 'ledger sandbox receiver events --json'))
    .action(action(async (io: Io, options: PageFlags) => io.show(await io.client().sandbox('GET', '/sandbox/receiver/events', { query: listQuery('ReceiverEventsQuery', options) }), receiverEventsView)));
}
