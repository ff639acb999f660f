import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Trx } from '../db/database.js';
import { developerSeq, idText, isoTime, typeName } from '../events/stored.js';
import type { MatchScope, SearchKind } from './kinds.js';
import {
  type SearchTerms,
  hasWords,
  idMatchesBlob,
  idMatchesText,
  isAccountNumber,
  referenceMatches,
} from './search-terms.js';

/** One record a search found: its kind, id, the field that matched, and what a row showing it needs. */
export interface SearchMatch {
  kind: SearchKind;
  id: string;
  matched: string;
  created_at: string;
  [field: string]: unknown;
}

/** A field a record can match on, and the condition for the terms (undefined: the terms cannot match it). */
interface Matcher {
  field: string;
  /** Names one record: kept when only those are asked for (MatchScope `id`). */
  identifies: boolean;
  where: (terms: SearchTerms) => RawBuilder<boolean> | undefined;
}

interface KindSearch {
  /** The caller's rows of this kind, with what a match shows, newest first. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rows: (trx: Trx, developerId: string) => Promise<SelectQueryBuilder<Database, any, any>>;
  matchers: Matcher[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  toMatch: (row: any) => Omit<SearchMatch, 'matched'> & { kind: SearchKind; id: string; created_at: string };
}

const id = (column: string, stored: 'text' | 'blob' = 'text'): Matcher => ({
  field: 'id',
  identifies: true,
  where: ({ hex }) =>
    hex === undefined ? undefined : stored === 'blob' ? idMatchesBlob(column, hex) : idMatchesText(column, hex),
});
const words = (field: string, value: string | RawBuilder<string>): Matcher => ({
  field,
  identifies: false,
  where: (t) => hasWords(value, t.words),
});
const reference = (column: string): Matcher => ({
  field: 'provider_reference',
  identifies: true,
  where: (t) => referenceMatches(column, t.text),
});
const accountNumber = (...columns: string[]): Matcher => ({
  field: 'account_number',
  identifies: true,
  where: ({ text }) =>
    isAccountNumber(text)
      ? sql<boolean>`(${sql.join(
          columns.map((c) => sql`${sql.ref(c)} = ${text}`),
          sql` OR `,
        )})`
      : undefined,
});

const fullName = sql<string>`(wallets.first_name || ' ' || wallets.last_name)`;
const customerName = (row: { first_name: string | null; last_name: string | null }) =>
  row.first_name === null ? null : `${row.first_name} ${row.last_name}`;

const SEARCHES: Record<SearchKind, KindSearch> = {
  wallet: {
    rows: async (trx, developerId) =>
      trx
        .selectFrom('wallets')
        .innerJoin('accounts', 'accounts.id', 'wallets.id')
        .where('wallets.developer_id', '=', developerId)
        .select([
          'wallets.seq',
          'wallets.id',
          'wallets.customer_reference',
          'wallets.first_name',
          'wallets.last_name',
          'wallets.account_number',
          'accounts.balance',
          'wallets.status',
          'wallets.created_at',
        ])
        .orderBy('wallets.created_at', 'desc')
        .orderBy('wallets.seq', 'desc'),
    matchers: [
      id('wallets.id'),
      accountNumber('wallets.account_number'),
      words('customer_reference', 'wallets.customer_reference'),
      words('customer_name', fullName),
    ],
    toMatch: (row) => ({
      kind: 'wallet',
      id: row.id,
      customer_name: customerName(row),
      customer_reference: row.customer_reference,
      account_number: row.account_number,
      balance: row.balance,
      status: row.status,
      created_at: row.created_at,
    }),
  },
  transaction: {
    rows: async (trx, developerId) =>
      trx
        .selectFrom('wallets')
        .innerJoin('accounts', 'accounts.id', 'wallets.id')
        .innerJoin('transactions', 'transactions.account_seq', 'accounts.seq')
        .where('wallets.developer_id', '=', developerId)
        .select([
          'transactions.seq',
          'transactions.id',
          'transactions.type',
          'transactions.amount',
          'transactions.status',
          'wallets.id as wallet_id',
          'wallets.first_name',
          'wallets.last_name',
          'transactions.sender_name',
          'transactions.raw_narration',
          'transactions.provider_reference',
          'transactions.created_at',
        ])
        .orderBy('transactions.created_at', 'desc')
        .orderBy('transactions.seq', 'desc'),
    matchers: [
      id('transactions.id'),
      reference('transactions.provider_reference'),
      accountNumber('transactions.sender_account', 'transactions.destination_account_number'),
      words('sender_name', 'transactions.sender_name'),
      words('raw_narration', 'transactions.raw_narration'),
    ],
    toMatch: (row) => ({
      kind: 'transaction',
      id: row.id,
      type: row.type,
      amount: row.amount,
      status: row.status,
      wallet_id: row.wallet_id,
      customer_name: customerName(row),
      sender_name: row.sender_name,
      raw_narration: row.raw_narration,
      provider_reference: row.provider_reference,
      created_at: isoTime(row.created_at),
    }),
  },
  suspense_item: {
    rows: async (trx, developerId) =>
      trx
        .selectFrom('suspense_items')
        .leftJoin('wallets', 'wallets.id', 'suspense_items.wallet_id')
        .where('suspense_items.developer_id', '=', developerId)
        .select([
          'suspense_items.seq',
          'suspense_items.id',
          'suspense_items.amount',
          'suspense_items.reason',
          'suspense_items.status',
          'suspense_items.sender_name',
          'suspense_items.raw_narration',
          'suspense_items.provider_reference',
          'suspense_items.account_number',
          'suspense_items.wallet_id',
          'wallets.first_name',
          'wallets.last_name',
          'suspense_items.created_at',
        ])
        .orderBy('suspense_items.created_at', 'desc')
        .orderBy('suspense_items.seq', 'desc'),
    matchers: [
      id('suspense_items.id'),
      reference('suspense_items.provider_reference'),
      accountNumber('suspense_items.account_number', 'suspense_items.sender_account'),
      words('sender_name', 'suspense_items.sender_name'),
      words('raw_narration', 'suspense_items.raw_narration'),
    ],
    toMatch: (row) => ({
      kind: 'suspense_item',
      id: row.id,
      amount: row.amount,
      reason: row.reason,
      status: row.status,
      sender_name: row.sender_name,
      raw_narration: row.raw_narration,
      provider_reference: row.provider_reference,
      account_number: row.account_number,
      wallet_id: row.wallet_id,
      customer_name: customerName(row),
      created_at: row.created_at,
    }),
  },
  webhook_log: {
    rows: async (trx, developerId) =>
      trx
        .selectFrom('webhook_logs')
        .innerJoin('events', 'events.seq', 'webhook_logs.event_seq')
        .leftJoin('transactions as announced', 'announced.seq', 'events.transaction_seq')
        .leftJoin('accounts as announced_account', 'announced_account.seq', 'announced.account_seq')
        .where('webhook_logs.developer_seq', '=', await developerSeq(trx, developerId))
        .select([
          'webhook_logs.seq',
          'webhook_logs.id',
          'webhook_logs.event_type_code',
          'webhook_logs.status',
          'webhook_logs.attempt_count',
          'events.id as event_id',
          'events.payload',
          'announced.id as transaction_id',
          'announced_account.id as wallet_id',
          'events.created_at_ms',
        ])
        .orderBy('events.created_at_ms', 'desc')
        .orderBy('webhook_logs.seq', 'desc'),
    matchers: [
      id('webhook_logs.id', 'blob'),
      { ...id('events.id', 'blob'), field: 'event_id' },
      {
        // A delivery about a transaction is found by the transaction's id or provider reference.
        field: 'transaction',
        identifies: true,
        where: ({ text }) => sql<boolean>`(announced.id = ${text} OR announced.provider_reference = ${text})`,
      },
      {
        // Any other event (suspense, wallet, agent) names its records in its stored payload.
        field: 'payload',
        identifies: true,
        where: ({ text }) => (text.length < 8 || /\s/.test(text) ? undefined : hasWords('events.payload', [text])),
      },
    ],
    toMatch: (row) => ({
      kind: 'webhook_log',
      id: idText(row.id),
      event_type: typeName(row.event_type_code),
      status: row.status,
      attempt_count: row.attempt_count,
      event_id: idText(row.event_id),
      transaction_id: row.transaction_id,
      wallet_id: row.wallet_id ?? walletOfPayload(row.payload),
      created_at: isoTime(row.created_at_ms),
    }),
  },
  agent: {
    rows: async (trx, developerId) =>
      trx
        .selectFrom('agents')
        .where('agents.developer_id', '=', developerId)
        .select([
          'agents.seq',
          'agents.id',
          'agents.name',
          'agents.wallet_id',
          'agents.trigger',
          'agents.action',
          'agents.is_active',
          'agents.created_at',
        ])
        .orderBy('agents.created_at', 'desc')
        .orderBy('agents.seq', 'desc'),
    matchers: [id('agents.id'), words('name', 'agents.name')],
    toMatch: (row) => ({
      kind: 'agent',
      id: row.id,
      name: row.name,
      wallet_id: row.wallet_id,
      trigger: row.trigger,
      action: row.action,
      is_active: row.is_active === 1,
      created_at: row.created_at,
    }),
  },
};

/** The wallet a stored payload names (`data.wallet_id`), when it names one. */
function walletOfPayload(payload: string): string | null {
  try {
    const walletId = (JSON.parse(payload) as { data?: { wallet_id?: unknown } }).data?.wallet_id;
    return typeof walletId === 'string' ? walletId : null;
  } catch {
    return null;
  }
}

/**
 * The caller's records of one kind that the terms match, newest first, at most `limit` (and whether
 * there were more). One query per field, each cut at `limit + 1`: the newest `limit` of their union
 * are the newest `limit` matches, and a record matching on several fields is listed once, by the
 * first of its kind's fields (ids before references, account numbers, then names and narrations).
 */
export async function searchKind(
  trx: Trx,
  developerId: string,
  kind: SearchKind,
  terms: SearchTerms,
  options: { limit: number; scope: MatchScope },
): Promise<{ items: SearchMatch[]; more: boolean }> {
  const search = SEARCHES[kind];
  const found = new Map<string, { match: SearchMatch; seq: number }>();
  for (const matcher of search.matchers) {
    if (options.scope === 'id' && !matcher.identifies) continue;
    const where = matcher.where(terms);
    if (where === undefined) continue;
    const rows = await (
      await search.rows(trx, developerId)
    )
      .where(where)
      .limit(options.limit + 1)
      .execute();
    for (const row of rows) {
      const match = search.toMatch(row);
      if (!found.has(match.id))
        found.set(match.id, { match: { ...match, matched: matcher.field }, seq: row.seq as number });
    }
  }
  // Newest first; records made at the same moment (a manual clock) in the order they were made, newest first too.
  const newestFirst = [...found.values()].sort((a, b) =>
    a.match.created_at === b.match.created_at ? b.seq - a.seq : a.match.created_at < b.match.created_at ? 1 : -1,
  );
  return {
    items: newestFirst.slice(0, options.limit).map(({ match }) => match),
    more: newestFirst.length > options.limit,
  };
}
