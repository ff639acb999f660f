import type { Capabilities } from '../client/capabilities.js';
import { UnsupportedError } from '../client/errors.js';
import { fits, template } from '../client/seed-api.js';
import type { Io } from './io-types.js';

/**
 * What to use instead of an extension a server lacks, by its operation: said after what the server
 * lacks, so a refusal is never a bare 404 and always names the way that works there.
 */
const INSTEAD: { method: string; path: string; instead: string }[] = [
  {
    method: 'GET',
    path: '/v1/transactions',
    instead: 'list one wallet at a time: `ledger transactions list <wallet_id>`',
  },
  {
    method: 'GET',
    path: '/sandbox/wallets',
    instead: 'its API has no list of wallets: look one up by its whole id with `ledger wallets get <wallet_id>`',
  },
  {
    method: 'PATCH',
    path: '/sandbox/wallets/{}',
    instead: "a wallet's transfers out are switched back on by the service's own operators; nothing in its API does it",
  },
  {
    method: 'POST',
    path: '/v1/suspense/{}/flag',
    instead:
      'resolve the item with `ledger suspense resolve <suspense_id>`, or keep escalations where your team tracks them',
  },
  {
    method: 'POST',
    path: '/v1/suspense/{}/notes',
    instead: 'a note goes with the resolution: `ledger suspense resolve <suspense_id> --note TEXT`',
  },
  {
    method: 'GET',
    path: '/sandbox/agents/{}/runs',
    instead: "`ledger agents list` shows each agent's trigger_count and last_triggered_at",
  },
  {
    method: 'GET',
    path: '/sandbox/webhook-endpoint',
    instead: "the endpoint and its signing secret are set in the service's dashboard",
  },
  { method: 'PUT', path: '/sandbox/webhook-endpoint', instead: "the endpoint is set in the service's dashboard" },
  {
    method: 'POST',
    path: '/sandbox/webhook-endpoint/rotate-secret',
    instead: "the signing secret is rotated in the service's dashboard",
  },
  {
    method: 'GET',
    path: '/sandbox/report',
    instead:
      'the lists give each part: `ledger suspense list --all`, `ledger webhooks list --all`, `ledger transactions list <wallet_id> --all`',
  },
  {
    method: 'GET',
    path: '/sandbox/webhook-logs/stream',
    instead: 'follow deliveries with `ledger webhooks list --desc`',
  },
];

/** `https://api.example.ng (from profile staging (--profile))`: where the refused request would have gone. */
const target = (io: Io) => `${io.config().baseUrl} (from ${io.config().from})`;

/**
 * Refused before sending (UNSUPPORTED, exit 2): `what` (`has no cross-wallet transaction list`) said
 * of the server, then `instead`.
 */
export function unsupported(io: Io, what: string, instead: string): UnsupportedError {
  return new UnsupportedError(`${target(io)} ${what}: ${instead}; nothing was sent`);
}

/**
 * A request beyond the seed interface that the server does not offer (its operation, a query
 * parameter, or several values of one) is refused before it is sent, naming what is missing and
 * what to use instead. Commands fall back before they get here where the seed can do the same; this
 * is the last word for the rest, so no command meets a raw 404 or 400 from an extension the server lacks.
 */
export async function refuseUnoffered(
  io: Io,
  offered: Capabilities,
  method: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<void> {
  const operation = `${method} ${template(path).replace(/\/[0-9a-f-]{36}(?=\/|$)/gi, '/{}')}`;
  const instead = INSTEAD.find((i) => i.method === method && fits(i.path, path))?.instead;
  const orElse = instead ?? 'use a ledger sandbox for this';
  if (!offered.has(method, path)) {
    const why =
      offered.source === 'seed'
        ? 'publishes no OpenAPI document, so it is taken to offer the seed interface alone'
        : 'does not list it in its /openapi.json';
    throw unsupported(io, `has no ${operation} (it ${why})`, orElse);
  }
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (!offered.takes(method, path, name))
      throw unsupported(
        io,
        `takes no query parameter "${name}" on ${operation}`,
        'leave out the flag that asks for it',
      );
    if (String(value).includes(',') && !offered.takesMany(method, path, name))
      throw unsupported(io, `takes one value of "${name}" at a time on ${operation}`, 'give one value');
  }
}
