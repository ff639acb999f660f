import { parseInstant } from '../../api/instant.js';
import type { ListFilters } from '../../engine/filters.js';

/**
 * A list's query as the engine reads it: times as Dates (the schema has checked them), a status
 * list split at its commas; everything else as given.
 * @example listFilters({ page: 1, status: 'PENDING,FLAGGED' }) // { page: 1, status: ['PENDING', 'FLAGGED'] }
 */
export function listFilters<
  Q extends { since?: string | undefined; until?: string | undefined; status?: string | undefined },
>(query: Q): Omit<Q, 'since' | 'until' | 'status'> & Pick<ListFilters, 'since' | 'until' | 'status'> {
  const at = (text: string | undefined) => (text === undefined ? undefined : new Date(parseInstant(text)!));
  return { ...query, since: at(query.since), until: at(query.until), status: query.status?.split(',') };
}
