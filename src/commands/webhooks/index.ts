import { Command } from 'commander';
import type { WebhookAttempt, WebhookEndpoint, WebhookLog } from '../../api/schemas/webhooks.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { endpointView, webhookListView, webhookShowView } from '../output/views.js';
import { fetchAll, pageQuery, type PageFlags, withPaging } from '../paging.js';
import { runTail } from './tail.js';

const STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'];

export function webhooksCommand(): Command {
  return new Command('webhooks')
    .description('Outbound webhooks: deliveries, retries, the endpoint and its signing secret')
    .addCommand(
      withPaging(clientCommand('list'))
        .description('List deliveries, oldest first')
        .option('--status <status>', STATUSES.join(', '))
        .option('--event-type <type>', 'for example ledger.credit')
        .addHelpText('after', examples('ledger webhooks list --status FAILED', 'ledger webhooks list --event-type ledger.credit --desc --json'))
        .action(action(runList)),
    )
    .addCommand(
      clientCommand('show')
        .description('One delivery: the envelope, every attempt and the response bodies')
        .argument('<log_id>', 'webhook log id')
        .addHelpText('after', examples('ledger webhooks show "$LOG"', 'ledger webhooks show "$LOG" --json'))
        .action(action(runShow)),
    )
    .addCommand(
      clientCommand('retry')
        .description('Retry a FAILED or DEAD delivery now; --all-failed retries every FAILED and DEAD one')
        .argument('[log_id]', 'webhook log id')
        .option('--all-failed', 'every FAILED and DEAD delivery')
        .option('--dry-run', 'with --all-failed: list what would be retried and send nothing')
        .addHelpText('after', examples('ledger webhooks retry "$LOG"', 'ledger webhooks retry --all-failed --dry-run', 'ledger webhooks retry --all-failed --json'))
        .action(action(runRetry)),
    )
    .addCommand(
      clientCommand('tail')
        .description('Follow deliveries live until Ctrl-C; with --json one JSON object per line')
        .option('--interval <ms>', 'how often to look, in milliseconds', '500')
        .addHelpText('after', examples('ledger webhooks tail', 'ledger webhooks tail --json | jq .event_type'))
        .action(action(runTail)),
    )
    .addCommand(secretCommand())
    .addCommand(endpointCommand())
    .addHelpText('after', examples('ledger webhooks list --status FAILED', 'ledger webhooks tail', 'ledger webhooks endpoint set http://127.0.0.1:3000/hooks'));
}

export async function runList(io: Io, options: PageFlags & { status?: string; eventType?: string }): Promise<void> {
  const status = options.status?.toUpperCase();
  if (status !== undefined && !STATUSES.includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  const page = await io.client().request('GET', '/v1/webhook-logs', { query: { ...pageQuery(options), status, event_type: options.eventType } });
  await io.show(page, webhookListView);
}

export async function runShow(io: Io, id: string): Promise<void> {
  const client = io.client();
  const log = await client.sandbox<WebhookLog>('GET', `/sandbox/webhook-logs/${encodeURIComponent(id)}`);
  const { items } = await client.sandbox<{ items: WebhookAttempt[] }>('GET', `/sandbox/webhook-logs/${encodeURIComponent(id)}/attempts`);
  await io.show({ log, attempts: items }, webhookShowView);
}

async function retryable(io: Io): Promise<WebhookLog[]> {
  const pages = ['FAILED', 'DEAD'].map((status) =>
    fetchAll((page) => io.client().request<{ items: WebhookLog[]; total: number }>('GET', '/v1/webhook-logs', { query: { status, ...page } })),
  );
  return (await Promise.all(pages)).flat();
}

export async function runRetry(io: Io, id: string | undefined, options: { allFailed?: boolean; dryRun?: boolean }): Promise<void> {
  if (options.allFailed && id) throw new UsageError('give a log id or --all-failed, not both');
  if (!options.allFailed && options.dryRun) throw new UsageError('--dry-run goes with --all-failed');
  if (!options.allFailed) {
    if (!id) throw new UsageError('missing <log_id> (or --all-failed)');
    const log = await io.client().request<WebhookLog>('POST', `/v1/webhook-logs/${encodeURIComponent(id)}/retry`);
    await io.show({ items: [log], total: 1, page: 1, limit: 1 }, webhookListView);
    return;
  }
  const targets = await retryable(io);
  const results = options.dryRun
    ? targets
    : await Promise.all(targets.map((log) => io.client().request<WebhookLog>('POST', `/v1/webhook-logs/${encodeURIComponent(log.id)}/retry`)));
  io.note(options.dryRun ? `Would retry ${targets.length} deliveries.` : `Retried ${targets.length} deliveries: ${results.filter((l) => l.status === 'DELIVERED').length} delivered.`);
  await io.show({ items: results, total: results.length, page: 1, limit: Math.max(1, results.length) }, webhookListView);
}

function secretCommand(): Command {
  const secret = clientCommand('secret')
    .description('Print the whsec_ signing secret; `secret rotate` issues a new one (the old one signs too for 24 h)')
    .addHelpText('after', examples('ledger webhooks secret', 'ledger webhooks secret rotate'))
    .action(action(async (io: Io) => showSecret(io, await io.client().sandbox<WebhookEndpoint>('GET', '/sandbox/webhook-endpoint'))));
  secret.addCommand(
    clientCommand('rotate')
      .description('Issue a new signing secret; deliveries carry both signatures for 24 h of sandbox time')
      .addHelpText('after', examples('ledger webhooks secret rotate --quiet'))
      .action(action(async (io: Io) => showSecret(io, await io.client().sandbox<WebhookEndpoint>('POST', '/sandbox/webhook-endpoint/rotate-secret')))),
  );
  return secret;
}

async function showSecret(io: Io, endpoint: WebhookEndpoint): Promise<void> {
  await io.show(endpoint, { kind: 'custom', quiet: (e: WebhookEndpoint) => e.secret, lines: (e: WebhookEndpoint) => [e.secret] });
}

function endpointCommand(): Command {
  const endpoint = clientCommand('endpoint')
    .description('Show where deliveries go; `endpoint set <url>` and `endpoint reset` change it')
    .addHelpText('after', examples('ledger webhooks endpoint', 'ledger webhooks endpoint set http://127.0.0.1:3000/hooks', 'ledger webhooks endpoint reset'))
    .action(action(async (io: Io) => io.show(await io.client().sandbox('GET', '/sandbox/webhook-endpoint'), endpointView)));
  endpoint.addCommand(
    clientCommand('set')
      .description('Deliver to this URL from now on (pending deliveries included)')
      .argument('<url>', 'http or https URL')
      .addHelpText('after', examples('ledger webhooks endpoint set http://127.0.0.1:3000/hooks'))
      .action(action(async (io: Io, url: string) => io.show(await io.client().sandbox('PUT', '/sandbox/webhook-endpoint', { body: { url } }), endpointView))),
  );
  endpoint.addCommand(
    clientCommand('reset')
      .description("Deliver to the sandbox's built-in receiver again")
      .addHelpText('after', examples('ledger webhooks endpoint reset'))
      .action(action(async (io: Io) => io.show(await io.client().sandbox('PUT', '/sandbox/webhook-endpoint', { body: { url: null } }), endpointView))),
  );
  return endpoint;
}
