import type { Command } from '../../cli/command.js';
import type { WebhookLog } from '../../api/schemas/webhooks.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { plural } from '../../text/format.js';
import { webhookListView } from '../../cli/output/views.js';
import { fetchAll } from '../../cli/paging.js';

export function retryCommand(): Command {
  return clientCommand('retry')
    .argument('[log_id]', 'webhook log id')
    .option('--all-failed', 'every FAILED and DEAD delivery')
    .option('--dry-run', 'with --all-failed: list what would be retried and send nothing')
    .addHelpText(
      'after',
      examples(
        'ledger webhooks retry "$LOG"',
        'ledger webhooks retry --all-failed --dry-run',
        'ledger webhooks retry --all-failed --json',
      ),
    )
    .action(action(runRetry));
}

async function retryable(io: Io): Promise<WebhookLog[]> {
  const pages = ['FAILED', 'DEAD'].map((status) =>
    fetchAll((page) =>
      io
        .client()
        .request<{ items: WebhookLog[]; total: number }>('GET', '/v1/webhook-logs', { query: { status, ...page } }),
    ),
  );
  return (await Promise.all(pages)).flat();
}

export async function runRetry(
  io: Io,
  id: string | undefined,
  options: { allFailed?: boolean; dryRun?: boolean },
): Promise<void> {
  if (options.allFailed && id) throw new UsageError('give a log id or --all-failed, not both');
  if (!options.allFailed && options.dryRun) throw new UsageError('--dry-run goes with --all-failed');
  if (!options.allFailed) {
    if (!id) throw new UsageError('missing <log_id> (or --all-failed)');
    if (io.asksLive()) await (await import('../../cli/live-questions.js')).confirmLiveRetry(io, 1, `delivery ${id}`);
    const log = await io.client().request<WebhookLog>('POST', `/v1/webhook-logs/${encodeURIComponent(id)}/retry`);
    await io.show({ items: [log], total: 1, page: 1, limit: 1 }, webhookListView);
    io.note(
      log.status === 'DELIVERED'
        ? `Attempt ${log.attempt_count} delivered it.`
        : `Attempt ${log.attempt_count} failed ` +
            `(${log.http_status_code === null ? 'no answer' : `HTTP ${log.http_status_code}`}): ` +
            `still ${log.status}; \`ledger webhooks show ${log.id}\` has the response.`,
    );
    return;
  }
  const targets = await retryable(io);
  if (!options.dryRun && targets.length > 0 && io.asksLive()) {
    await (
      await import('../../cli/live-questions.js')
    ).confirmLiveRetry(io, targets.length, `${plural(targets.length, 'FAILED or DEAD delivery')}`);
  }
  const results = options.dryRun
    ? targets
    : await Promise.all(
        targets.map((log) =>
          io.client().request<WebhookLog>('POST', `/v1/webhook-logs/${encodeURIComponent(log.id)}/retry`),
        ),
      );
  const delivered = results.filter((l) => l.status === 'DELIVERED').length;
  io.note(
    options.dryRun
      ? `Would retry ${plural(targets.length, 'delivery')}.`
      : `Retried ${plural(targets.length, 'delivery')}: ${delivered} delivered.`,
  );
  await io.show(
    { items: results, total: results.length, page: 1, limit: Math.max(1, results.length) },
    webhookListView,
  );
}
