import { type Html, html } from '../html.js';
import { facts, liveRegion, refusal, table, when } from '../layout.js';
import type { PageHandler } from '../page-types.js';

/** A row of the request log as GET /sandbox/requests gives it; fields a server leaves out show as blanks. */
interface LoggedRequest {
  id: string;
  method?: string;
  path?: string;
  status?: number;
  code?: string | null;
  duration_ms?: number;
  idempotency_key?: string | null;
  replayed?: boolean;
  source?: string;
  at?: string;
  real_at?: string;
  request_body?: unknown;
}

const FILTERS = ['status', 'path', 'since', 'idempotency_key'] as const;

/** A server without the request log answers its route 404: said calmly, as a missing feature, not a failure. */
const noLog = (answer: { ok: false; status: number; code: string; message: string }) =>
  answer.status === 404 && answer.message.startsWith('no route');

const NO_LOG = html`<p>No request log on this sandbox: this version of the server does not keep one.</p>`;

/** The request log, newest first and live, filtered as `ledger logs list` filters it. */
export const requests: PageHandler = async ({ api, query, url }) => {
  const filters = Object.fromEntries(FILTERS.map((name) => [name, (query[name] ?? '').trim()]));
  const listed = await api.get<{ items: LoggedRequest[] } | LoggedRequest[]>('/sandbox/requests', filters);
  const form = html`<form class="inline" action="/requests" method="get">
    <div>
      <label for="requests-status">Status</label
      ><input id="requests-status" name="status" value="${filters.status}" placeholder="4xx, 404" size="8" />
    </div>
    <div>
      <label for="requests-path">Path</label
      ><input id="requests-path" name="path" value="${filters.path}" placeholder="/v1/wallets" />
    </div>
    <button type="submit">Filter</button>
  </form>`;
  if (!listed.ok)
    return {
      title: 'Requests',
      section: 'Requests',
      body: noLog(listed) ? NO_LOG : html`${form}${refusal(listed)}`,
      status: noLog(listed) ? 200 : listed.status,
    };
  const items = Array.isArray(listed.data) ? listed.data : listed.data.items;
  const live = table(
    'Requests, newest first',
    ['Time', 'Method', 'Path', 'Status', 'Code', 'Duration', 'Idempotency-Key', 'Source', 'Request'],
    items.map(
      (r) =>
        html`<tr>
          <td>${when(r.at)}</td>
          <td>${r.method}</td>
          <td>${r.path}</td>
          <td>${r.status}${r.replayed ? ' (replay)' : ''}</td>
          <td>${r.code ?? ''}</td>
          <td class="num">${r.duration_ms === undefined ? '' : `${r.duration_ms} ms`}</td>
          <td>${r.idempotency_key ?? ''}</td>
          <td>${r.source}</td>
          <td><a href="/requests/${encodeURIComponent(r.id)}">${r.id}</a></td>
        </tr>`,
    ),
    { empty: 'No request logged yet.' },
  );
  return { title: 'Requests', section: 'Requests', body: html`${form}${liveRegion(url, live)}`, live };
};

/** One logged request in full. */
export const request: PageHandler = async ({ api, params }) => {
  const found = await api.get<LoggedRequest>(`/sandbox/requests/${encodeURIComponent(params.id!)}`);
  if (!found.ok)
    return noLog(found)
      ? { title: 'Request', section: 'Requests', body: NO_LOG }
      : { title: 'Request not found', section: 'Requests', body: refusal(found), status: found.status };
  const r = found.data;
  const known = new Set([
    'id',
    'method',
    'path',
    'status',
    'code',
    'duration_ms',
    'idempotency_key',
    'replayed',
    'source',
    'at',
    'real_at',
    'request_body',
  ]);
  const others = Object.entries(r).filter(([name]) => !known.has(name)) as [string, unknown][];
  const shown = (value: unknown): Html | string =>
    value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const body = html`${facts([
      ['Request id', r.id],
      ['Method', r.method],
      ['Path', r.path],
      ['Status', r.status],
      ['Code', r.code ?? '—'],
      ['Duration', r.duration_ms === undefined ? null : `${r.duration_ms} ms`],
      ['Idempotency-Key', r.idempotency_key ?? '—'],
      ['Replay', r.replayed ? 'yes: the stored answer was sent again' : 'no'],
      ['Source', r.source],
      ['Time (sandbox clock)', r.at],
      ['Real time', r.real_at],
      ...others.map(([name, value]): [string, Html | string] => [name, shown(value)]),
    ])}
    <h2>Request body</h2>
    ${
      r.request_body === null || r.request_body === undefined
        ? html`<p>Not kept: bodies are kept for failed requests only, with secrets removed.</p>`
        : html`<pre>
${typeof r.request_body === 'string' ? r.request_body : JSON.stringify(r.request_body, null, 2)}</pre>`
    }`;
  return { title: `Request ${r.id}`, section: 'Requests', body };
};
