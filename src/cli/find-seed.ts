import type { SearchMatch, SearchResult } from '../api/schemas/search.js';
import type { Transaction } from '../api/schemas/transactions.js';
import type { Wallet } from '../api/schemas/wallets.js';
import { ApiError } from '../client/errors.js';
import type { Io } from './io.js';
import { fetchAll } from './paging.js';

type Item = Record<string, unknown>;
type Kind = SearchMatch['kind'];

const WHOLE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `ledger find` on a server without the sandbox's search: what the seed's lists hold (suspense items,
 * webhook deliveries, agents) read whole and matched here, and a whole id tried as a wallet and as a
 * transaction (the seed reads those one at a time, by id). Matches as the search does: an id by its
 * start or the start of its last 12 hex digits, a provider reference whole or by its first 6+
 * characters, an account number, or every word in a name or narration (any case); newest first,
 * `limit` of each kind.
 */
export async function searchSeed(
  io: Io,
  query: { q: string; kind?: string | undefined; limit: number },
): Promise<SearchResult> {
  const q = query.q.trim();
  const wanted = (kind: Kind) => query.kind === undefined || query.kind === kind;
  io.note(
    'this service has no search: looking through its suspense items, webhook deliveries and agents here (wallets and transactions by their whole id only)',
  );
  const matches: SearchMatch[] = [];
  const all = (path: string) =>
    fetchAll((page) => io.client().request<{ items: Item[]; total: number }>('GET', path, { query: page }));
  const byId = <T>(path: string) =>
    io
      .client()
      .request<T>('GET', path)
      .catch((error) => (error instanceof ApiError && error.status === 404 ? undefined : Promise.reject(error)));
  if (WHOLE_ID.test(q) && wanted('wallet')) {
    const wallet = await byId<Wallet>(`/v1/wallets/${q}`);
    if (wallet) {
      matches.push({
        kind: 'wallet',
        id: wallet.id,
        matched: 'id',
        created_at: wallet.created_at,
        customer_name: `${wallet.first_name} ${wallet.last_name}`,
        customer_reference: wallet.customer_reference,
        account_number: wallet.account_number,
        balance: wallet.balance,
        status: wallet.status,
      });
    }
  }
  if (WHOLE_ID.test(q) && wanted('transaction')) {
    const t = await byId<Transaction>(`/v1/transactions/${q}`);
    if (t) {
      matches.push({
        kind: 'transaction',
        id: t.id,
        matched: 'id',
        created_at: t.created_at,
        type: t.type,
        amount: t.amount,
        status: t.status,
        wallet_id: t.wallet_id,
        customer_name: null,
        sender_name: t.sender_name,
        raw_narration: t.raw_narration,
        provider_reference: t.provider_reference,
      });
    }
  }
  if (wanted('suspense_item')) {
    for (const item of await all('/v1/suspense')) {
      const matched =
        idMatch(q, item.id) ??
        referenceMatch(q, item.provider_reference) ??
        (q === item.account_number ? 'account_number' : undefined) ??
        wordsMatch(q, item, ['sender_name', 'raw_narration']);
      if (matched)
        matches.push({
          ...(pick(item, [
            'id',
            'created_at',
            'amount',
            'reason',
            'status',
            'sender_name',
            'raw_narration',
            'provider_reference',
            'account_number',
            'wallet_id',
          ]) as object),
          kind: 'suspense_item',
          matched,
          customer_name: null,
        } as SearchMatch);
    }
  }
  if (wanted('webhook_log')) {
    for (const log of await all('/v1/webhook-logs')) {
      const matched =
        idMatch(q, log.id) ?? idMatch(q, log.event_id, 'event_id') ?? (q === log.event_type ? 'event_type' : undefined);
      const data = ((log.payload as { data?: Item } | undefined)?.data ?? {}) as Item;
      const text = (value: unknown) => (typeof value === 'string' ? value : null);
      if (matched)
        matches.push({
          ...(pick(log, ['id', 'created_at', 'event_type', 'status', 'attempt_count', 'event_id']) as object),
          kind: 'webhook_log',
          matched,
          transaction_id: text(data.transaction_id),
          wallet_id: text(data.wallet_id),
        } as SearchMatch);
    }
  }
  if (wanted('agent')) {
    for (const agent of await all('/v1/agents')) {
      const matched = idMatch(q, agent.id) ?? wordsMatch(q, agent, ['name']);
      if (matched)
        matches.push({
          ...(pick(agent, ['id', 'created_at', 'name', 'wallet_id', 'trigger', 'action', 'is_active']) as object),
          kind: 'agent',
          matched,
        } as SearchMatch);
    }
  }
  const items: SearchMatch[] = [];
  const more: Kind[] = [];
  for (const kind of ['wallet', 'transaction', 'suspense_item', 'webhook_log', 'agent'] as const) {
    const ofKind = matches
      .filter((m) => m.kind === kind)
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    items.push(...ofKind.slice(0, query.limit));
    if (ofKind.length > query.limit) more.push(kind);
  }
  return { items, more } as SearchResult;
}

const pick = (item: Item, names: string[]) => Object.fromEntries(names.map((name) => [name, item[name]]));

/** The start of an id, or of its last 12 hex digits (what tables show), dashes left out: 4 hex digits or more. */
function idMatch(q: string, id: unknown, field = 'id'): string | undefined {
  const hex = q.replace(/-/g, '').toLowerCase();
  if (typeof id !== 'string' || !/^[0-9a-f]{4,32}$/.test(hex)) return undefined;
  const whole = id.replace(/-/g, '').toLowerCase();
  return whole.startsWith(hex) || whole.slice(-12).startsWith(hex) ? field : undefined;
}

/** A provider reference given whole, or its first 6 characters or more. */
function referenceMatch(q: string, reference: unknown): string | undefined {
  return typeof reference === 'string' && q.length >= 6 && reference.startsWith(q) ? 'provider_reference' : undefined;
}

/** Every word of `q` in one of `fields`, in any case: that field. */
function wordsMatch(q: string, item: Item, fields: string[]): string | undefined {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  return fields.find(
    (field) =>
      typeof item[field] === 'string' && words.every((word) => (item[field] as string).toLowerCase().includes(word)),
  );
}
