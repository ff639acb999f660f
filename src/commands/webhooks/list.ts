import type { Command } from '../../cli/command.js';
import { choicesOf } from '../../client/validate.js';
import { FILTER_FLAGS, type FilterFlags, readFilters, withFilters } from '../../cli/filters.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../../cli/options.js';
import { webhookListView } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';
import { listPages } from '../../cli/remote.js';

export function listCommand(): Command {
  return withFilters(withPaging(clientCommand('list')), 'WebhookLogListQuery', { wallet: true, payment: false })
    .addOption(
      enumOption('--event-type <type>', 'only this event type', choicesOf('WebhookLogListQuery', 'event_type')),
    )
    .addHelpText(
      'after',
      examples(
        'ledger webhooks list --status FAILED,DEAD',
        'ledger webhooks list --event-type ledger.credit --desc --json',
        'ledger webhooks list --customer ada-001 --since 24h',
        'ledger webhooks list --all --format csv > deliveries.csv',
      ),
    )
    .action(action(runList));
}

export async function runList(io: Io, options: PageFlags & FilterFlags & { eventType?: string }): Promise<void> {
  const filters = readFilters('WebhookLogListQuery', options);
  const query = {
    ...listQuery(
      'WebhookLogListQuery',
      options,
      { event_type: options.eventType, ...filters.query },
      { event_type: '--event-type', ...FILTER_FLAGS },
    ),
    ...(await filters.times(io)),
  };
  const { items, clock } = await showList(
    io,
    options,
    query,
    await listPages(io, '/v1/webhook-logs', query),
    webhookListView,
    { clock: true },
  );
  const waiting = clock && waitingForClock(items as { status: string; next_retry_at: string | null }[], clock);
  if (waiting) io.note(waiting);
}

/**
 * On a manual clock nothing is delivered until the clock moves: "2 deliveries wait for the clock:
 * ledger sandbox clock advance 5s", the step that reaches the first of them. A manual clock is told
 * by where it stands: it started at --clock-start (or 2026-01-01 with --seed), not at real time.
 */
export function waitingForClock(
  logs: { status: string; next_retry_at: string | null }[],
  clock: { now: string; offset_seconds: number },
): string | undefined {
  const now = Date.parse(clock.now);
  if (Math.abs(now - clock.offset_seconds * 1000 - Date.now()) < 60_000) return undefined;
  const due = logs
    .filter((log) => log.status === 'PENDING' || (log.status === 'FAILED' && log.next_retry_at !== null))
    .map((log) => (log.next_retry_at ? Date.parse(log.next_retry_at) : now));
  if (due.length === 0) return undefined;
  const seconds = Math.max(1, Math.ceil((Math.min(...due) - now) / 1000));
  const step = seconds % 3600 === 0 ? `${seconds / 3600}h` : seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
  return `${due.length === 1 ? '1 delivery waits' : `${due.length} deliveries wait`} for the clock: ledger sandbox clock advance ${step}`;
}
