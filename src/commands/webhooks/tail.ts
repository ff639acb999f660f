import type { WebhookLog } from '../../api/schemas/webhooks.js';
import type { Io } from '../io.js';
import { positiveInt } from '../options.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Prints each delivery attempt as it happens until Ctrl-C: a line for people, or one JSON object
 * (the webhook log) per line with --json. Deliveries from before the start are not replayed.
 */
export async function runTail(io: Io, options: { interval?: string; signal?: AbortSignal }): Promise<void> {
  const interval = positiveInt('--interval')(options.interval ?? '500');
  const { formatter } = await import('../output/render.js');
  const fmt = formatter(io.stdout, io.env);
  const seen = new Map<string, string>();
  const key = (log: WebhookLog) => `${log.status}:${log.attempt_count}`;
  const fetchRecent = () => io.client().request<{ items: WebhookLog[] }>('GET', '/v1/webhook-logs', { query: { order: 'desc', limit: 100 } });
  for (const log of (await fetchRecent()).items) seen.set(log.id, key(log));
  io.note('Following webhook deliveries; Ctrl-C to stop.');

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  options.signal?.addEventListener('abort', stop);
  try {
    while (!controller.signal.aborted) {
      await sleep(interval);
      if (controller.signal.aborted) break;
      const changed = (await fetchRecent()).items.filter((log) => seen.get(log.id) !== key(log)).reverse();
      for (const log of changed) {
        seen.set(log.id, key(log));
        if (io.flags.json) io.stdout.write(`${JSON.stringify(log)}\n`);
        else if (io.flags.quiet) io.stdout.write(`${log.id}\n`);
        else {
          const detail = log.attempt_count === 0 ? 'queued' : `attempt ${log.attempt_count} → ${log.http_status_code ?? log.response_body ?? 'no answer'}`;
          io.stdout.write(`${log.created_at}  ${log.event_type.padEnd(18)} ${fmt.status(log.status)}${' '.repeat(Math.max(1, 10 - log.status.length))} ${detail}  ${fmt.dim(log.id)}\n`);
        }
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
