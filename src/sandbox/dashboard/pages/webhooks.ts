import type { WebhookAttempt, WebhookLog } from '../../../api/schemas/webhooks.js';
import { html } from '../html.js';
import { facts, liveRegion, pageOf, pager, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';
import { deliveryTable } from './tables.js';

const LIMIT = 20;
const STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'];

/** Outbound deliveries, newest first, live: a delivery's status changes as its attempts are made. */
export const webhooks: PageHandler = async ({ api, query, url }) => {
  const status = STATUSES.includes(query.status ?? '') ? query.status! : '';
  const page = pageOf(query);
  const listed = await api.get<{ items: WebhookLog[]; total: number }>('/v1/webhook-logs', {
    status,
    page,
    limit: LIMIT,
    order: 'desc',
  });
  const form = html`<form class="inline" action="/webhooks" method="get">
    <div>
      <label for="webhook-status">Status</label>
      <select id="webhook-status" name="status">
        <option value="">Any</option>
        ${STATUSES.map((s) => html`<option value="${s}" ${s === status ? html` selected` : ''}>${s}</option>`)}
      </select>
    </div>
    <button type="submit">Filter</button>
  </form>`;
  if (!listed.ok)
    return { title: 'Webhooks', section: 'Webhooks', body: html`${form}${refusal(listed)}`, status: listed.status };
  const live = html`${deliveryTable('Deliveries, newest first', listed.data.items, 'No deliveries yet.')}
  ${pager('/webhooks', { status }, page, LIMIT, listed.data.total)}`;
  return { title: 'Webhooks', section: 'Webhooks', body: html`${form}${liveRegion(url, live)}`, live };
};

/**
 * One delivery: its event as sent, the signature headers, every attempt with what came back, and
 * Retry while it is FAILED or DEAD; live, so a retry's outcome or a scheduled attempt shows itself.
 */
/** One arrival at the built-in receiver, as GET /sandbox/receiver/events gives it. */
interface Received {
  headers: Record<string, string>;
  signature_valid: boolean;
  response_status: number;
  created_at: string;
}

/** The signature headers of each attempt the built-in receiver got, and whether they verified. */
const receivedHeaders = (items: Received[]) =>
  table(
    'Signature headers as the built-in receiver got them, oldest first',
    ['Received', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'Signature', 'Answered'],
    items.map(
      (r) =>
        html`<tr>
          <td>${when(r.created_at)}</td>
          <td>${r.headers['webhook-id'] ?? ''}</td>
          <td>${r.headers['webhook-timestamp'] ?? ''}</td>
          <td><code>${r.headers['webhook-signature'] ?? ''}</code></td>
          <td>${r.signature_valid ? 'valid' : 'INVALID'}</td>
          <td>${r.response_status}</td>
        </tr>`,
    ),
  );

export const webhook: PageHandler = async ({ api, params, url }) => {
  const id = encodeURIComponent(params.id!);
  const [found, attempts] = await Promise.all([
    api.get<WebhookLog>(`/sandbox/webhook-logs/${id}`),
    api.get<{ items: WebhookAttempt[] }>(`/sandbox/webhook-logs/${id}/attempts`),
  ]);
  if (!found.ok)
    return { title: 'Delivery not found', section: 'Webhooks', body: refusal(found), status: found.status };
  const d = found.data;
  // What the built-in receiver got for this delivery: the signature headers as they were sent.
  const received = await api.get<{ items: Received[] }>('/sandbox/receiver/events', {
    webhook_id: d.event_id,
    limit: 20,
  });
  const retry =
    d.status === 'FAILED' || d.status === 'DEAD'
      ? html`<form data-api="/v1/webhook-logs/${id}/retry" data-done="Retried: one attempt made.">
          <button type="submit">Retry</button>
        </form>`
      : '';
  const live = html`${facts([
    ['Status', d.status],
    ['Last HTTP status', d.http_status_code],
    ['Attempts', d.attempt_count],
    ['Next retry', when(d.next_retry_at)],
    ['Delivered', when(d.delivered_at)],
    ['Last response', d.response_body],
  ])}${retry}
  ${
    attempts.ok
      ? table(
          'Attempts, oldest first',
          ['#', 'Time', 'URL', 'HTTP', 'Duration', 'Response body or error', 'By hand'],
          attempts.data.items.map(
            (a) =>
              html`<tr>
                <td class="num">${a.attempt_number}</td>
                <td>${when(a.created_at)}</td>
                <td>${a.url}</td>
                <td>${a.http_status_code ?? '—'}</td>
                <td class="num">${a.duration_ms} ms</td>
                <td><pre>${a.error ?? a.response_body ?? ''}</pre></td>
                <td>${a.manual ? 'yes' : 'no'}</td>
              </tr>`,
          ),
          { empty: 'No attempt yet.' },
        )
      : refusal(attempts)
  }`;
  const body = html`${facts([
      ['Event', d.event_type],
      ['Event id', d.event_id],
      ['Created', when(d.created_at)],
      ['Delivery id', d.id],
    ])}
    ${liveRegion(url, live)}
    <h2>Request</h2>
    <p>
      Each attempt is a POST of this body with these headers (Standard Webhooks). The timestamp is the real time of the
      attempt and the signature is made then with the endpoint's signing secret: the built-in receiver keeps them as it
      got them; an endpoint of your own sees them in its own log.
    </p>
    ${received.ok && received.data.items.length > 0 ? receivedHeaders(received.data.items) : ''}
    ${table(
      'Signature headers',
      ['Header', 'Value'],
      [
        html`<tr>
          <td>webhook-id</td>
          <td>${d.event_id}</td>
        </tr>`,
        html`<tr>
          <td>webhook-timestamp</td>
          <td>the attempt's real time, in seconds since 1970</td>
        </tr>`,
        html`<tr>
          <td>webhook-signature</td>
          <td>v1,base64(HMAC-SHA256(secret, "webhook-id.webhook-timestamp.body"))</td>
        </tr>`,
        html`<tr>
          <td>content-type</td>
          <td>application/json</td>
        </tr>`,
      ],
    )}
    <h3>Body</h3>
    <pre>${JSON.stringify(d.payload, null, 2)}</pre>`;
  return { title: `Webhook delivery ${d.event_type}`, section: 'Webhooks', body, live };
};
