/**
 * What every Wallet Ledger Service offers: the seed interface's operations, each with the query
 * parameters it takes (paging, and the filters the seed names, one value each). A request within
 * this table needs no look at the server's `/openapi.json`; anything beyond it (a `/sandbox` path,
 * a filter, `order`, several statuses at once) is an extension that only some servers have
 * (capabilities.ts).
 */

/** An operation as `METHOD /path/{}`: path parameters are written `{}`, whatever their name. */
export interface Operation {
  method: string;
  path: string;
  query: string[];
}

export const SEED_OPERATIONS: Operation[] = [
  { method: 'POST', path: '/v1/wallets', query: [] },
  { method: 'GET', path: '/v1/wallets/{}', query: [] },
  { method: 'POST', path: '/v1/wallets/{}/close', query: [] },
  { method: 'POST', path: '/v1/wallets/{}/transfer', query: [] },
  { method: 'GET', path: '/v1/wallets/{}/transactions', query: ['page', 'limit'] },
  { method: 'GET', path: '/v1/transactions/{}', query: [] },
  { method: 'POST', path: '/v1/wallets/{}/agents', query: [] },
  { method: 'PATCH', path: '/v1/wallets/{}/agents/{}/toggle', query: [] },
  { method: 'GET', path: '/v1/agents', query: ['page', 'limit', 'wallet_id'] },
  { method: 'GET', path: '/v1/suspense', query: ['page', 'limit', 'status', 'reason'] },
  { method: 'POST', path: '/v1/suspense/{}/resolve', query: [] },
  { method: 'GET', path: '/v1/banks', query: [] },
  { method: 'POST', path: '/v1/banks/resolve', query: [] },
  { method: 'GET', path: '/v1/webhook-logs', query: ['page', 'limit', 'status', 'event_type'] },
  { method: 'POST', path: '/v1/webhook-logs/{}/retry', query: [] },
];

/** `/v1/wallets/{wallet_id}/transactions` → `/v1/wallets/{}/transactions`: templates compared whatever their parameters' names. */
export const template = (path: string): string =>
  path
    .split('?')[0]!
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\/+$/, '');

/** Whether a concrete path (`/v1/wallets/019b…/transactions`) or a template is an instance of `pattern` (a template). */
export function fits(pattern: string, path: string): boolean {
  const want = template(pattern).split('/');
  const have = template(path).split('/');
  return want.length === have.length && want.every((part, i) => (part === '{}' ? have[i] !== '' : part === have[i]));
}

/** The seed's filters that take one value each: several at once (`PENDING,FLAGGED`) are an extension. */
const ONE_VALUE = new Set(['status', 'reason', 'event_type']);

/** True when the request asks nothing beyond the seed interface: its operation is the seed's, with the seed's query parameters and one value each. */
export function withinSeed(
  method: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): boolean {
  const operation = SEED_OPERATIONS.find((o) => o.method === method && fits(o.path, path));
  if (!operation) return false;
  return Object.entries(query).every(
    ([name, value]) =>
      value === undefined || (operation.query.includes(name) && !(ONE_VALUE.has(name) && String(value).includes(','))),
  );
}
