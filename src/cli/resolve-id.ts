import type { SearchMatch, SearchResult } from '../api/schemas/search.js';
import { AmbiguousError, ApiError, UnsupportedError, UsageError } from '../client/errors.js';
import { notYours } from './account-number.js';
import { naira } from '../text/format.js';
import type { Io } from './io.js';
import { offers } from './remote.js';

/** The kinds of record a command names by id, as `/sandbox/search` calls them. */
export type IdKind = 'wallet' | 'transaction' | 'suspense_item' | 'webhook_log' | 'agent';

/** What the API's `<kind> not found` calls each kind (account-number.ts adds where they are listed). */
const NAMED: Record<IdKind, { one: string; many: string }> = {
  wallet: { one: 'wallet', many: 'wallets' },
  transaction: { one: 'transaction', many: 'transactions' },
  suspense_item: { one: 'suspense item', many: 'suspense items' },
  webhook_log: { one: 'webhook log', many: 'webhook logs' },
  agent: { one: 'agent', many: 'agents' },
};

/** The id arguments and flag values (`<wallet_id>`, `--target-wallet <wallet_id>`) by name, and the kind each names. */
const KINDS: Record<string, IdKind> = {
  wallet_id: 'wallet',
  from_wallet_id: 'wallet',
  to: 'wallet',
  account: 'wallet',
  transaction_id: 'transaction',
  suspense_id: 'suspense_item',
  log_id: 'webhook_log',
  agent_id: 'agent',
};

const WHOLE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `<to>` and `<account>` take an account number as well as a wallet id. */
const ACCOUNT_NUMBER = /^\d{10}$/;

/** The start of an id, or of its last 12 hex digits, as `/sandbox/search` takes it: 4 hex digits or more, dashes anywhere. */
const ID_START = /^(?:-*[0-9a-f]){4,32}-*$/i;
/** Kinds a provider reference names (of 6 characters or more, its shortest start `/sandbox/search` matches). */
const REFERENCED = /^\S{6,}$/;

/**
 * True when `value`, given for an argument or flag value named `name`, must be looked up to be an
 * id. What cannot be the start of an id or a reference (`w`) is sent as given: the runner checks its
 * flags first (exit 2 before any request), and the API's NOT_FOUND says the rest.
 */
function needsLookUp(name: string, value: unknown): value is string {
  const kind = KINDS[name];
  if (typeof value !== 'string' || kind === undefined || WHOLE_ID.test(value)) return false;
  if ((name === 'to' || name === 'account') && ACCOUNT_NUMBER.test(value)) return false;
  return ID_START.test(value) || ((kind === 'transaction' || kind === 'suspense_item') && REFERENCED.test(value));
}

/** A command as `action` hands it over: its arguments' names and its options' flags. */
interface Declared {
  argumentNames(): string[];
  options: readonly { flags: string; attributeName(): string }[];
}

/**
 * Every id a command was given, whole: an argument or flag value that is not a whole id (nor, where
 * one is taken, an account number) is looked up with `resolveId`. Nothing is asked of the server when
 * every id is whole, as most scripts give them.
 */
export async function resolveIdValues(
  io: Io,
  command: Declared,
  positional: unknown[],
  options: Record<string, unknown>,
): Promise<void> {
  const names = command.argumentNames();
  for (const [i, name] of names.entries()) {
    if (needsLookUp(name, positional[i]))
      positional[i] = await resolveId(io, KINDS[name]!, positional[i] as string, `<${name}>`);
  }
  for (const option of command.options) {
    const name = /<(\w+)>/.exec(option.flags)?.[1];
    const key = option.attributeName();
    const long = option.flags.split(/[ ,|]+/).find((word) => word.startsWith('--'));
    if (name !== undefined && needsLookUp(name, options[key]))
      options[key] = await resolveId(io, KINDS[name]!, options[key] as string, long ?? `<${name}>`);
  }
}

/**
 * The whole id of the one record of `kind` that `value` names: the start of its id, the start of
 * its id's last 12 hex digits (the random part of a UUIDv7, what tables show), or, for a transaction
 * or suspense item, its provider reference. Several: exit 2 with each candidate. None: the API's
 * NOT_FOUND, explained. A server without `/sandbox/search` takes whole ids only, and says so.
 * @example await resolveId(io, 'wallet', '3f9a1c', '<wallet_id>') // '019b…-…3f9a1c…'
 */
export async function resolveId(io: Io, kind: IdKind, value: string, label: string): Promise<string> {
  // A service without the sandbox's search (its /openapi.json, asked without a key, says so): whole ids only, before anything is sent.
  if (!(await offers(io, 'GET', '/sandbox/search'))) {
    throw new UnsupportedError(
      `${label} "${value}" is not a whole id, and ${io.config().baseUrl} (from ${io.config().from}) ` +
        `has no search to find the ${NAMED[kind].one} it starts: give the whole id; nothing was sent`,
    );
  }
  let result: SearchResult;
  try {
    result = await io
      .client()
      .request<SearchResult>('GET', '/sandbox/search', { query: { q: value, kind, match: 'id', limit: 10 } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new UsageError(
        `${label} "${value}" is not a whole id, and ${io.config().baseUrl} has no /sandbox/search to find the ${NAMED[kind].one} it starts: give the whole id`,
      );
    }
    throw error;
  }
  const { items } = result;
  if (items.length === 1) return items[0]!.id;
  if (items.length === 0) throw notYours(new ApiError(404, 'NOT_FOUND', `${NAMED[kind].one} not found`), value, label);
  const count = `${items.length}${result.more.length > 0 ? ' or more' : ''}`;
  throw new AmbiguousError(
    `${label} "${value}" names ${count} ${NAMED[kind].many}: give more of the id`,
    items.map(candidate),
  );
}

/** A candidate of an ambiguous id: the whole id, and what tells it apart for a person. */
function candidate(match: SearchMatch): string {
  const time = match.created_at.replace('T', ' ').slice(0, 19);
  switch (match.kind) {
    case 'wallet':
      return `${match.id}  ${match.customer_name ?? ''} (${match.customer_reference}) ${match.account_number} ${match.status}`;
    case 'transaction':
      return `${match.id}  ${match.type} ${naira(match.amount)} ${match.status} ${match.customer_name ?? match.wallet_id} ${time}`;
    case 'suspense_item':
      return `${match.id}  ${naira(match.amount)} from ${match.sender_name} ${match.reason} ${match.status} ${time}`;
    case 'webhook_log':
      return `${match.id}  ${match.event_type} ${match.status} ${time}`;
    case 'agent':
      return `${match.id}  ${match.name} ${match.trigger} → ${match.action}${match.is_active ? '' : ' (off)'}`;
  }
}
