import type { Trx } from '../db/database.js';
import { type MatchScope, SEARCH_KINDS, type SearchKind } from './kinds.js';
import { type SearchMatch, searchKind } from './search.repository.js';
import { searchTerms } from './search-terms.js';

export interface SearchQuery {
  q: string;
  /** Only this kind of record (id resolution asks for one). */
  kind?: SearchKind | undefined;
  /** At most this many records of each kind. */
  limit: number;
  match: MatchScope;
}

export interface SearchResult {
  /** Grouped by kind in SEARCH_KINDS' order, newest first within each. */
  items: SearchMatch[];
  /** The kinds that had more matches than `limit`. */
  more: SearchKind[];
}

/**
 * The caller's wallets, transactions, suspense items, delivery logs and agents that `q` names: by
 * id (the start of one, or of its random tail), provider reference, account number, customer
 * reference or name, sender name, narration words (docs/cli.md, "Search and id prefixes").
 * @example await search(db, developerId, { q: 'ada', limit: 10, match: 'any' })
 */
export async function search(trx: Trx, developerId: string, query: SearchQuery): Promise<SearchResult> {
  const terms = searchTerms(query.q);
  const result: SearchResult = { items: [], more: [] };
  for (const kind of query.kind ? [query.kind] : SEARCH_KINDS) {
    const found = await searchKind(trx, developerId, kind, terms, { limit: query.limit, scope: query.match });
    result.items.push(...found.items);
    if (found.more) result.more.push(kind);
  }
  return result;
}
