import type { WebhookLog } from '../../api/schemas/webhooks.js';
import type { WebhookAttemptEvent } from '../../api/schemas/webhook-stream.js';
import type { Io } from '../../cli/io.js';
import { pause } from '../../cli/follow.js';
import { fetchAll } from '../../cli/paging.js';

/**
 * `webhooks tail` against a service that has no stream of delivery attempts (the seed interface has
 * none): its webhook logs are read every `seconds`, and a delivery whose attempt count grew since the
 * last read is an attempt to show. What the seed's log does not hold is said as well as it can be:
 * the attempt's time is when it was seen (or the delivery's, once delivered), and several attempts
 * between two reads show as the last of them. Attempts made before it started are not shown.
 */
export async function pollAttempts(
  io: Io,
  show: (event: WebhookAttemptEvent) => void,
  signal: AbortSignal,
  seconds: number,
): Promise<void> {
  io.stderr.write(
    `This service has no stream of delivery attempts: reading its webhook logs every ${seconds} s instead; Ctrl-C to stop.\n`,
  );
  const seen = new Map<string, number>();
  let first = true;
  while (!signal.aborted) {
    const logs = await fetchAll((page) =>
      io.client().request<{ items: WebhookLog[]; total: number }>('GET', '/v1/webhook-logs', { query: page }),
    );
    for (const log of logs) {
      const before = seen.get(log.id) ?? 0;
      seen.set(log.id, log.attempt_count);
      if (first || log.attempt_count <= before) continue;
      show({ log, attempt: attemptOf(log) });
    }
    first = false;
    await pause(seconds * 1000, signal);
  }
}

/** The last attempt of a delivery, as far as its log tells it. */
function attemptOf(log: WebhookLog): WebhookAttemptEvent['attempt'] {
  return {
    id: log.id,
    attempt_number: log.attempt_count,
    manual: false,
    url: '',
    http_status_code: log.http_status_code,
    response_body: log.response_body,
    error: log.http_status_code === null ? log.response_body : null,
    duration_ms: 0,
    created_at: log.delivered_at ?? new Date().toISOString(),
  };
}
