import type { Command } from '../command.js';
import { choicesOf } from '../../client/validate.js';
import { FILTER_FLAGS, type FilterFlags, readFilters, withFilters } from '../filters.js';
import type { Io } from '../io.js';
import { action, clientCommand, enumOption, examples } from '../options.js';
import { webhookListView } from '../output/views.js';
import { listQuery, type PageFlags, withPaging } from '../paging.js';

export function listCommand(): Command {
  return withFilters(withPaging(clientCommand('list')), 'WebhookLogListQuery', { wallet: true, payment: false })
    .addOption(enumOption('--event-type <type>', 'only this event type', choicesOf('WebhookLogListQuery', 'event_type')))
    .addHelpText(
      'after',
      examples('ledger webhooks list --status FAILED,DEAD', 'ledger webhooks list --event-type ledger.credit --desc --json', 'ledger webhooks list --customer ada-001 --since 24h'),
    )
    .action(action(runList));
}

export async function runList(io: Io, options: PageFlags & FilterFlags & { eventType?: string }): Promise<void> {
  const filters = readFilters('WebhookLogListQuery', options);
  const query = {
    ...listQuery('WebhookLogListQuery', options, { event_type: options.eventType, ...filters.query }, { event_type: '--event-type', ...FILTER_FLAGS }),
    ...(await filters.times(io)),
  };
  await io.show(await io.client().request('GET', '/v1/webhook-logs', { query }), webhookListView);
}
