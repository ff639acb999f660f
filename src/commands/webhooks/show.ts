import type { Command } from '../../cli/command.js';
import type { WebhookAttempt, WebhookLog } from '../../api/schemas/webhooks.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { webhookShowView } from '../../cli/output/views.js';
import { offers, readOne } from '../../cli/remote.js';

export function showCommand(): Command {
  return clientCommand('show')
    .argument('<log_id>', 'webhook log id')
    .addHelpText('after', examples('ledger webhooks show "$LOG"', 'ledger webhooks show "$LOG" --json'))
    .action(action(runShow));
}

export async function runShow(io: Io, id: string): Promise<void> {
  const client = io.client();
  const log = await readOne<WebhookLog>(io, '/sandbox/webhook-logs/{}', '/v1/webhook-logs', id, 'webhook log');
  // The attempts are the sandbox's record alone: a service without it shows the delivery, as its list does.
  if (!(await offers(io, 'GET', '/sandbox/webhook-logs/{}/attempts'))) {
    io.note('this service keeps no list of attempts: the delivery is shown as its list gives it');
    await io.show({ log }, webhookShowView);
  } else {
    const { items } = await client.sandbox<{ items: WebhookAttempt[] }>(
      'GET',
      `/sandbox/webhook-logs/${encodeURIComponent(id)}/attempts`,
    );
    await io.show({ log, attempts: items }, webhookShowView);
  }
  if (log.status === 'FAILED' || log.status === 'DEAD') {
    const next = log.next_retry_at
      ? `; otherwise the next is at ${log.next_retry_at} on the sandbox clock`
      : '; no more are scheduled';
    io.note(`\`ledger webhooks retry ${log.id}\` makes one attempt now${next}.`);
  }
}
