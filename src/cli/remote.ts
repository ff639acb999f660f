import type { Wallet } from '../api/schemas/wallets.js';
import { ApiError } from '../client/errors.js';
import { fits, withinSeed } from '../client/seed-api.js';
import type { Io } from './io.js';

/** A page of a list, as the API answers it. */
export interface Page<T = Record<string, unknown>> {
  items: T[];
  total?: number;
  page?: number;
  limit?: number;
}

/**
 * The seed interface standing in for this service's extensions on a server that lacks them
 * (decisions: Remote fallbacks): a list's filters applied here to every page of the seed's list,
 * with the same meaning the sandbox gives them (engine/filters.ts), and one record found by paging
 * through the list that holds it. Each says so on stderr. Against this folder's own sandbox nothing
 * here runs: its capabilities are everything, and nothing is asked.
 */

type Query = Record<string, string | number | undefined>;
type Item = Record<string, unknown>;
export type PageFetcher = (query: Query & { page: number; limit: number }) => Promise<Page>;

/** The seed's lists: what their items are called, and where an item names its wallet. */
const LISTS: { path: string; noun: string; walletOf: (item: Item) => unknown }[] = [
  { path: '/v1/suspense', noun: 'suspense items', walletOf: (item) => item.wallet_id },
  // The wallet a delivery is about: the one its event's data names.
  {
    path: '/v1/webhook-logs',
    noun: 'webhook deliveries',
    walletOf: (item) => ((item.payload as { data?: { wallet_id?: unknown } } | undefined)?.data ?? {}).wallet_id,
  },
  { path: '/v1/wallets/{}/transactions', noun: 'transactions', walletOf: (item) => item.wallet_id },
  { path: '/v1/agents', noun: 'agents', walletOf: (item) => item.wallet_id },
];

/** Page size when reading a whole list: the most a page holds. */
const PAGE = 100;

/**
 * How to read pages of the list at `path` with `query`'s filters: straight from the server when it
 * takes them all (this folder's sandbox always does; a query within the seed needs no look at the
 * server), else from every page of the seed's list, filtered, ordered and paged here into the same
 * `{ items, total, page, limit }` the server would answer, with a notice on stderr.
 * @example const fetchPage = await listPages(io, '/v1/suspense', query); await fetchPage(query);
 */
export async function listPages(io: Io, path: string, query: Query): Promise<PageFetcher> {
  const direct: PageFetcher = (q) => io.client().request<Page>('GET', path, { query: q });
  if (withinSeed('GET', path, query)) return direct;
  const offered = await io.capabilities();
  const sendable = (name: string, value: string | number) =>
    offered.takes('GET', path, name) && (!String(value).includes(',') || offered.takesMany('GET', path, name));
  const given = Object.entries(query).filter(
    (entry): entry is [string, string | number] =>
      entry[1] !== undefined && entry[0] !== 'page' && entry[0] !== 'limit',
  );
  const missing = given.filter(([name, value]) => !sendable(name, value)).map(([name]) => name);
  const list = LISTS.find((l) => fits(l.path, path));
  // What the server has all of, or a list it does not have at all (the request's own guard refuses that, naming what to use).
  if (offered.source === 'own' || missing.length === 0 || !list || !offered.has('GET', path)) return direct;
  // Filters the server takes go to it; the order is kept here (the list is read oldest first, as every seed list is), and every filter is checked here again.
  const sent = Object.fromEntries(given.filter(([name, value]) => name !== 'order' && sendable(name, value)));
  let matched: Promise<Item[]> | undefined;
  return async (q) => {
    matched ??= (async () => {
      const items = await readWhole(
        io,
        path,
        sent,
        `this service has no ${missing.join(', ')} on ${list.noun}`,
        list.noun,
      );
      const keep = await matcher(io, q, list.walletOf, path, items);
      const kept = items.filter(keep);
      return q.order === 'desc' ? kept.reverse() : kept;
    })();
    const all = await matched;
    const start = (q.page - 1) * q.limit;
    return { items: all.slice(start, start + q.limit), total: all.length, page: q.page, limit: q.limit };
  };
}

/**
 * Every item of the seed list at `path`, a page of 100 at a time, with `why` said first (with the
 * count) and progress on stderr while a terminal watches.
 */
async function readWhole(io: Io, path: string, query: Query, why: string, noun: string): Promise<Item[]> {
  const items: Item[] = [];
  const progress = io.stderr.isTTY === true && !io.flags.json && !io.flags.quiet;
  for (let page = 1; ; page++) {
    const batch = await io
      .client()
      .request<{ items: Item[]; total: number }>('GET', path, { query: { ...query, page, limit: PAGE } });
    if (page === 1) io.note(`${why}: paging through ${batch.total} ${noun} and filtering here`);
    items.push(...batch.items);
    if (batch.items.length < PAGE || page * PAGE >= batch.total) break;
    if (progress) io.stderr.write(`\r\u001b[Kreading… ${items.length} of ${batch.total}`);
  }
  if (progress && items.length > PAGE) io.stderr.write('\r\u001b[K');
  return items;
}

/**
 * Whether an item passes the filters, with the meaning the sandbox gives them (engine/filters.ts): every bound
 * inclusive, the sender a substring in any case.
 */
async function matcher(
  io: Io,
  q: Query,
  walletOf: (item: Item) => unknown,
  path: string,
  items: Item[],
): Promise<(item: Item) => boolean> {
  const text = (name: string) => (q[name] === undefined ? undefined : String(q[name]).trim());
  const number = (name: string) => (q[name] === undefined ? undefined : Number(q[name]));
  const since = q.since === undefined ? undefined : Date.parse(String(q.since));
  const until = q.until === undefined ? undefined : Date.parse(String(q.until));
  const statuses = q.status === undefined ? undefined : String(q.status).split(',');
  const [min, max, sender, reference] = [
    number('amount_min'),
    number('amount_max'),
    text('sender')?.toLowerCase(),
    text('provider_reference'),
  ];
  const wallet = await filteredWallet(io, text('wallet_id'), text('customer_reference'), path, items, walletOf);
  return (item) => {
    const created = Date.parse(String(item.created_at));
    if (since !== undefined && created < since) return false;
    if (until !== undefined && created > until) return false;
    if (statuses && !statuses.includes(String(item.status))) return false;
    for (const name of ['reason', 'event_type', 'type'] as const)
      if (q[name] !== undefined && item[name] !== q[name]) return false;
    if (min !== undefined && Number(item.amount) < min) return false;
    if (max !== undefined && Number(item.amount) > max) return false;
    if (
      sender !== undefined &&
      !String(item.sender_name ?? '')
        .toLowerCase()
        .includes(sender)
    )
      return false;
    if (reference !== undefined && item.provider_reference !== reference) return false;
    return wallet === undefined || (wallet !== null && walletOf(item) === wallet);
  };
}

/**
 * The one wallet that `wallet_id` and `customer_reference` name together (both must hold), `null`
 * when none does, undefined when neither is given. The seed finds a wallet by id alone, so a
 * customer reference is looked for among the wallets the items name, each read once.
 */
async function filteredWallet(
  io: Io,
  id: string | undefined,
  customer: string | undefined,
  path: string,
  items: Item[],
  walletOf: (item: Item) => unknown,
): Promise<string | null | undefined> {
  if (id === undefined && customer === undefined) return undefined;
  const read = (walletId: string) =>
    io
      .client()
      .request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletId)}`)
      .catch((error) => (error instanceof ApiError && error.status === 404 ? undefined : Promise.reject(error)));
  const pathWallet = /^\/v1\/wallets\/([^/]+)\//.exec(path)?.[1];
  const candidates =
    id !== undefined
      ? [id]
      : pathWallet !== undefined
        ? [decodeURIComponent(pathWallet)]
        : [...new Set(items.map(walletOf).filter((w): w is string => typeof w === 'string'))];
  for (const candidate of candidates) {
    const wallet = await read(candidate);
    if (wallet && (customer === undefined || wallet.customer_reference === customer)) return wallet.id;
  }
  return null;
}

/**
 * One record that only a list of the seed holds (a suspense item, a webhook log), found by paging
 * through that list where the server has no route to read it alone; NOT_FOUND, as the route would
 * answer, when no page holds it.
 * @example const item = await findListed(io, '/v1/suspense', id, 'suspense item');
 */
export async function findListed<T>(io: Io, path: string, id: string, one: string): Promise<T> {
  let total = 0;
  for (let page = 1; ; page++) {
    const batch = await io
      .client()
      .request<{ items: (T & { id: string })[]; total: number }>('GET', path, { query: { page, limit: PAGE } });
    if (page === 1)
      io.note(`this service cannot read one ${one} by its id: looking for it in its list of ${(total = batch.total)}`);
    const found = batch.items.find((item) => item.id === id);
    if (found) return found;
    if (batch.items.length < PAGE || page * PAGE >= total) break;
  }
  throw new ApiError(404, 'NOT_FOUND', `${one} not found`);
}

/**
 * One record by its id: from the sandbox's route (`route`, its id written `{}`) where the server has
 * it, else from the seed list at `list` (findListed), which shows the record as lists do.
 * @example await readOne<SuspenseItem>(io, '/sandbox/suspense/{}', '/v1/suspense', id, 'suspense item')
 */
export async function readOne<T>(io: Io, route: string, list: string, id: string, one: string): Promise<T> {
  if (await offers(io, 'GET', route)) return io.client().sandbox<T>('GET', route.replace('{}', encodeURIComponent(id)));
  return findListed<T>(io, list, id, one);
}

/** Whether the server has this operation: always for this folder's sandbox (nothing asked). */
export async function offers(io: Io, method: string, path: string): Promise<boolean> {
  return (await io.capabilities()).has(method, path);
}
