import type { Command } from '../command.js';
import { choicesOf } from '../../client/validate.js';
import type { Io } from '../io.js';
import { action, clientCommand, enumOption, examples } from '../options.js';
import { webhookListView } from '../output/views.js';
import { listQuery, type PageFlags, withPaging } from '../paging.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .addOption(enumOption('--status <status>', 'only deliveries with this status', choicesOf('WebhookLogListQuery', 'status')))
    .addOption(enumOption('--event-type <type>', 'only this event type', choicesOf('WebhookLogListQuery', 'event_type')))
    .addHelpText('after', examples('ledger webhooks list --status FAILED', 'ledger webhooks list --event-type ledger.credit --desc --json'))
    .action(action(runList));
}

export async function runList(io: Io, options: PageFlags & { status?: string; eventType?: string }): Promise<void> {
  const query = listQuery('WebhookLogListQuery', options, { status: options.status?.toUpperCase(), event_type: options.eventType }, { event_type: '--event-type' });
  await io.show(await io.client().request('GET', '/v1/webhook-logs', { query }), webhookListView);
}
