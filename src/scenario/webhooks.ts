import type { WebhookEndpoint } from '../api/schemas/webhooks.js';
import { verifySignature } from '../sandbox/webhooks/signing.js';
import { show } from './diff.js';
import { matchValue } from './matchers.js';
import type { Expectation, Outcome } from './model.js';
import { valueAt } from './paths.js';
import type { Target } from './target.js';

/** How many times expect_webhook runs the scheduler before it gives up: never a wait in real time. */
export const SCHEDULER_PASSES = 5;

/** The deliveries (by webhook id) that earlier expect_webhook steps matched: each matches one step only. */
export type Deliveries = Set<string>;

interface ReceiverEvent {
  id: string;
  webhook_id: string | null;
  event_type: string | null;
  signature_valid: boolean;
  response_status: number;
  headers: Record<string, string>;
  body: string;
}

async function get<T>(target: Target, path: string): Promise<T> {
  const response = await target.transport({ method: 'GET', path, headers: { 'x-api-key': target.apiKey } });
  const parsed = JSON.parse(response.body) as { success: boolean; data: T; detail?: { code: string; message: string } };
  if (!parsed.success)
    throw new Error(`GET ${path} answered ${response.status} ${parsed.detail?.code}: ${parsed.detail?.message}`);
  return parsed.data;
}

/** Everything the built-in receiver has recorded for the caller, oldest first. */
async function received(target: Target): Promise<ReceiverEvent[]> {
  const all: ReceiverEvent[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await get<{ items: ReceiverEvent[]; total: number }>(
      target,
      `/sandbox/receiver/events?page=${page}&limit=100`,
    );
    all.push(...items);
    if (items.length < 100 || all.length >= total) return all;
  }
}

/**
 * The deliveries the built-in receiver had before a scenario began, as taken: a sandbox of
 * --base-url (or of --snapshot) keeps those of earlier scenarios and runs, and one of them matched a
 * scenario's expect_webhook whose own delivery never came (seen). None when the sandbox cannot be
 * asked: the scenario's first step says why.
 */
export async function receivedBefore(target: Target): Promise<Deliveries> {
  try {
    return new Set((await received(target)).map((e) => e.webhook_id ?? e.id));
  } catch {
    return new Set();
  }
}

/**
 * Waits for a delivery of `eventType` whose event matches `match`, on the sandbox clock: it looks
 * at what the built-in receiver accepted (a 2xx answer to a delivery whose Standard Webhooks
 * signature it verified), and if nothing matches yet, runs the scheduler (what is due now) and looks
 * again, SCHEDULER_PASSES times at most. The signature is then checked once more here, against the
 * secret the developer's endpoint shows. The result is the event envelope plus the delivery's
 * headers.
 */
export async function awaitWebhook(
  target: Target,
  eventType: string,
  match: Expectation[],
  taken: Deliveries,
): Promise<Outcome> {
  const endpoint = await get<WebhookEndpoint>(target, '/sandbox/webhook-endpoint');
  if (!endpoint.built_in) {
    return {
      result: {},
      ok: false,
      summary:
        `deliveries go to ${endpoint.url}, not to the built-in receiver, ` +
        `whose record expect_webhook reads (webhooks endpoint reset sends them there again)`,
    };
  }
  let seen: { event: ReceiverEvent; payload: unknown }[] = [];
  for (let pass = 0; pass <= SCHEDULER_PASSES; pass++) {
    if (pass > 0) await target.runDue();
    seen = (await received(target))
      .filter(
        (e) =>
          e.event_type === eventType &&
          e.signature_valid &&
          e.response_status >= 200 &&
          e.response_status < 300 &&
          !taken.has(e.webhook_id ?? e.id),
      )
      .map((event) => ({ event, payload: JSON.parse(event.body) as unknown }));
    const found = seen.find(({ payload }) =>
      match.every((m) => matchValue(m.expected, valueAt(payload, m.path)).length === 0),
    );
    if (!found) continue;
    const { event, payload } = found;
    taken.add(event.webhook_id ?? event.id);
    const header = (name: string) => event.headers[name] ?? '';
    const signed = verifySignature(
      [endpoint.secret],
      header('webhook-id'),
      header('webhook-timestamp'),
      event.body,
      header('webhook-signature'),
    );
    // A delivery sent before a rotation carries only the previous secret's signature, which the API does not show.
    if (!signed && endpoint.previous_secret_valid_until === null) {
      return {
        result: {},
        ok: false,
        summary: `the ${eventType} delivery ${event.webhook_id} is not signed with the developer's secret (webhook-signature does not verify)`,
      };
    }
    if (header('webhook-id') !== (payload as { event_id?: unknown }).event_id) {
      return {
        result: {},
        ok: false,
        summary: `the ${eventType} delivery's webhook-id header (${header('webhook-id')}) is not its event_id`,
      };
    }
    return { result: { ...(payload as Record<string, unknown>), headers: event.headers }, ok: true };
  }
  const wanted = match.length > 0 ? ` with ${match.map((m) => `${m.path} ${show(m.expected)}`).join(', ')}` : '';
  const details = seen.slice(0, 3).map(({ payload }) => {
    const misses = match.flatMap((m) =>
      matchValue(m.expected, valueAt(payload, m.path)).map((x) => `${m.path}: ${x.message}`),
    );
    return `a ${eventType} delivery of event ${String((payload as { event_id?: unknown }).event_id)}: ${misses.join('; ')}`;
  });
  return {
    result: {},
    ok: false,
    summary:
      `no ${eventType} delivery${wanted} reached the built-in receiver after ${SCHEDULER_PASSES} scheduler ` +
      `passes (${seen.length} other ${eventType} ${seen.length === 1 ? 'delivery' : 'deliveries'})`,
    details,
  };
}
