import { SearchQuery, SearchResponse, type SearchResult } from '../../api/schemas/search.js';
import { search } from '../../engine/search/search.service.js';
import { type App, type RouteDeps, ok } from './route.js';

const tags = ['Sandbox'];

/** Search across the caller's records (decisions: Requests and validation): `ledger find`, and the CLI's id prefixes. */
export function sandboxSearchRoutes(app: App, { sandbox }: RouteDeps): void {
  app.get(
    '/sandbox/search',
    {
      schema: {
        tags,
        summary:
          "Find the caller's wallets, transactions, suspense items, " +
          'webhook logs and agents by id or its start, provider reference, account number, ' +
          'customer reference or name, sender name or narration words; grouped by kind, newest first',
        querystring: SearchQuery,
        response: { 200: SearchResponse },
      },
    },
    async (request) => ok((await search(sandbox.db, request.developerId, request.query)) as SearchResult),
  );
}
