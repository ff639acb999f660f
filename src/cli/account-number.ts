import type { Wallet } from '../api/schemas/wallets.js';
import { ApiError } from '../client/errors.js';
import type { Io } from './io.js';

/**
 * A 10-digit argument is an account number; anything else is taken as a wallet id and looked up.
 * One that names no wallet says which argument it was (`transfer` takes two wallet ids, and the
 * API's "wallet not found" does not say which), and where the ids are. The start of an id has been
 * made whole before this (resolve-id.ts).
 */
export async function accountNumberOf(io: Io, walletOrAccount: string, label: string): Promise<string> {
  if (/^\d{10}$/.test(walletOrAccount)) return walletOrAccount;
  try {
    const wallet = await io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletOrAccount)}`);
    return wallet.account_number;
  } catch (error) {
    throw notYourWallet(error, walletOrAccount, label, ' nor a 10-digit account number');
  }
}

/** Where each kind of id the API names in `<kind> not found` is listed, and the argument that takes it. */
const LISTED: Record<string, { argument: string; list: string }> = {
  wallet: { argument: 'wallet_id', list: 'ledger wallets list' },
  transaction: { argument: 'transaction_id', list: 'ledger transactions list <wallet_id>' },
  'suspense item': { argument: 'suspense_id', list: 'ledger suspense list' },
  'webhook log': { argument: 'log_id', list: 'ledger webhooks list' },
  agent: { argument: 'agent_id', list: 'ledger agents list' },
};

/** Every id is a UUID; a value of its shape but shorter is the start of one (resolve-id.ts looks those up). */
const WHOLE_ID = '00000000-0000-0000-0000-000000000000';
const isIdStart = (value: string) =>
  value.length >= 4 &&
  value.length < WHOLE_ID.length &&
  WHOLE_ID.startsWith(value.toLowerCase().replace(/[0-9a-f]/g, '0'));

/** The kind the API's `<kind> not found` names, with where it is listed, when it is one of LISTED's. */
function listedKind(error: unknown): { error: ApiError; named: string; listed: (typeof LISTED)[string] } | undefined {
  if (!(error instanceof ApiError) || error.code !== 'NOT_FOUND') return undefined;
  const named = /^(.+) not found$/.exec(error.message)?.[1];
  const listed = named === undefined ? undefined : LISTED[named];
  return listed ? { error, named: named!, listed } : undefined;
}

/**
 * The API's `<kind> not found`, with the argument that named it and where the right id is: the API
 * does not say which argument it was (`transfer` and `agents toggle` take two ids), and a person who
 * gave the start of an id (`01a20fd4-9`) learns that it starts none of theirs. The API's
 * kind must be `kind` when given; any other error stays as it is.
 */
export function notYours(error: unknown, value: string, label: string, kind?: string, or = ''): unknown {
  const found = listedKind(error);
  if (!found || (kind !== undefined && found.named !== kind)) return error;
  const { named, listed } = found;
  const why = isIdStart(value)
    ? `is the start of none of your ${named} ids (\`${listed.list}\` shows them)`
    : `is not one of your ${named} ids${or} (\`${listed.list}\` shows them)`;
  return found.error.reworded(`${named} not found: ${label} "${value}" ${why}`, { fields: undefined });
}

/** The API's NOT_FOUND for a wallet, with the argument that named it and where to find the right id; any other error as it is. */
export function notYourWallet(error: unknown, value: string, label: string, or = ''): unknown {
  return notYours(error, value, label, 'wallet', or);
}

/** A `<kind> not found` from a command's id arguments (`<wallet_id>`, `<log_id>` …): the one whose kind it is. */
export function notFoundArgument(error: unknown, names: readonly string[], values: readonly unknown[]): unknown {
  const argument = listedKind(error)?.listed.argument;
  const value = argument === undefined ? undefined : values[names.indexOf(argument)];
  return typeof value === 'string' ? notYours(error, value, `<${argument}>`) : error;
}
