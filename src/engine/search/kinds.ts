/** The kinds of record a search looks through, in the order their groups are listed. */
export const SEARCH_KINDS = ['wallet', 'transaction', 'suspense_item', 'webhook_log', 'agent'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** `id`: only the fields that name one record (ids, provider references, account numbers), as id resolution wants. */
export const MATCH_SCOPES = ['any', 'id'] as const;
export type MatchScope = (typeof MATCH_SCOPES)[number];
