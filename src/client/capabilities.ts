import { mkdirSync, chmodSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { httpTransport, type Transport } from './http.js';
import { saveFile } from './save-file.js';
import { fits, SEED_OPERATIONS, template } from './seed-api.js';

/**
 * What a server offers beyond the seed interface, read from its `GET /openapi.json` (sent without
 * a key). A server whose answer is not an OpenAPI document (404, a web page) offers the seed
 * interface alone. The answer is kept for CACHE_SECONDS in `$XDG_CACHE_HOME/ledger/capabilities.json`
 * (default `~/.cache/ledger/`), one entry per profile and base URL: a command run a second time asks
 * nothing, and a server that gains or loses an extension is seen within minutes.
 */
export interface Capabilities {
  /** `own`: this folder's sandbox, which has everything (nothing fetched); `openapi`: read from its document; `seed`: it has none. */
  source: 'own' | 'openapi' | 'seed';
  /** The sandbox's controls: `/sandbox/health` or any `/sandbox/` path. */
  sandbox: boolean;
  /** Whether it has the operation METHOD PATH (a concrete path or a template). */
  has(method: string, path: string): boolean;
  /** Whether that operation takes the query parameter `name`. */
  takes(method: string, path: string, name: string): boolean;
  /** Whether that operation's `name` takes several values separated by commas (its schema's pattern allows them). */
  takesMany(method: string, path: string, name: string): boolean;
}

/** How long a server's answer is kept: long enough for a session of commands, short enough to see an upgrade the same hour. */
export const CACHE_SECONDS = 600;

/** Each operation (`GET /v1/suspense`) with its query parameters, and those of them that take several values. */
type Table = Record<string, { query: string[]; many: string[] }>;

interface Entry {
  fetched_at: number;
  openapi: boolean;
  operations: Table;
}

/**
 * The capabilities of the server at `baseUrl`, from the cache when it is fresh, else from its
 * `/openapi.json` (then cached). `key` names the cache entry (the profile and the URL). An unreadable
 * or stale cache is fetched again; a cache that cannot be written is left as it is.
 * @example const caps = await readCapabilities('https://api.example.ng', 'staging https://api.example.ng', process.env);
 */
export async function readCapabilities(
  baseUrl: string,
  key: string,
  env: NodeJS.ProcessEnv,
  transport: Transport = httpTransport(baseUrl),
  now = Date.now(),
): Promise<Capabilities> {
  const file = cacheFile(env);
  const cached = readCache(file)[key];
  if (cached && now - cached.fetched_at >= 0 && now - cached.fetched_at < CACHE_SECONDS * 1000)
    return fromEntry(cached);
  const entry = await fetchEntry(baseUrl, transport, now);
  await writeCache(file, key, entry, now);
  return fromEntry(entry);
}

/** `$XDG_CACHE_HOME/ledger/capabilities.json`, else `~/.cache/ledger/capabilities.json` (HOME from the given environment first). */
export function cacheFile(env: NodeJS.ProcessEnv): string {
  const base =
    env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/')
      ? env.XDG_CACHE_HOME
      : join(env.HOME || homedir(), '.cache');
  return join(base, 'ledger', 'capabilities.json');
}

async function fetchEntry(baseUrl: string, transport: Transport, now: number): Promise<Entry> {
  const answer = await transport({
    method: 'GET',
    path: '/openapi.json',
    headers: { accept: 'application/json', connection: 'close' },
  });
  let document: unknown;
  try {
    document = answer.status === 200 ? JSON.parse(answer.body) : undefined;
  } catch {
    document = undefined;
  }
  const table = operationsOf(document);
  return table
    ? { fetched_at: now, openapi: true, operations: table }
    : { fetched_at: now, openapi: false, operations: seedTable() };
}

type Parameter = { in?: unknown; name?: unknown; schema?: { pattern?: unknown } };

/** The operations of an OpenAPI document (2 or 3), or undefined when `document` is not one. */
function operationsOf(document: unknown): Table | undefined {
  const doc = document as { openapi?: unknown; swagger?: unknown; paths?: unknown } | undefined;
  if (!doc || typeof doc !== 'object' || (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string'))
    return undefined;
  if (!doc.paths || typeof doc.paths !== 'object') return undefined;
  const table: Table = {};
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    if (!item || typeof item !== 'object') continue;
    const shared = Array.isArray(item.parameters) ? (item.parameters as Parameter[]) : [];
    for (const [method, operation] of Object.entries(item)) {
      if (
        !['get', 'put', 'post', 'patch', 'delete', 'head'].includes(method) ||
        !operation ||
        typeof operation !== 'object'
      )
        continue;
      const own = (operation as { parameters?: unknown }).parameters;
      const query = [...shared, ...(Array.isArray(own) ? (own as Parameter[]) : [])].filter(
        (p) => p && p.in === 'query' && typeof p.name === 'string',
      );
      table[`${method.toUpperCase()} ${template(path)}`] = {
        query: query.map((p) => p.name as string),
        many: query
          .filter((p) => typeof p.schema?.pattern === 'string' && p.schema.pattern.includes(','))
          .map((p) => p.name as string),
      };
    }
  }
  return table;
}

function seedTable(): Table {
  return Object.fromEntries(SEED_OPERATIONS.map((o) => [`${o.method} ${o.path}`, { query: o.query, many: [] }]));
}

function fromEntry(entry: Entry): Capabilities {
  const names = Object.keys(entry.operations);
  const find = (method: string, path: string) => {
    const exact = entry.operations[`${method} ${template(path)}`];
    if (exact) return exact;
    const name = names.find((n) => n.startsWith(`${method} `) && fits(n.slice(method.length + 1), path));
    return name === undefined ? undefined : entry.operations[name];
  };
  return {
    source: entry.openapi ? 'openapi' : 'seed',
    sandbox: names.some((n) => n.split(' ')[1]!.startsWith('/sandbox/')),
    has: (method, path) => find(method, path) !== undefined,
    takes: (method, path, name) => find(method, path)?.query.includes(name) ?? false,
    takesMany: (method, path, name) => find(method, path)?.many.includes(name) ?? false,
  };
}

function readCache(file: string): Record<string, Entry> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    const entries: Record<string, Entry> = {};
    for (const [key, value] of Object.entries(parsed as Record<string, Partial<Entry>>)) {
      if (
        value &&
        typeof value.fetched_at === 'number' &&
        typeof value.openapi === 'boolean' &&
        value.operations &&
        typeof value.operations === 'object'
      )
        entries[key] = value as Entry;
    }
    return entries;
  } catch {
    return {};
  }
}

/** Writes the cache with this entry and the other fresh ones (stale ones are dropped), atomically, 0600 in a 0700 folder. */
async function writeCache(file: string, key: string, entry: Entry, now: number): Promise<void> {
  const kept = Object.fromEntries(
    Object.entries(readCache(file)).filter(([, e]) => now - e.fetched_at < CACHE_SECONDS * 1000),
  );
  try {
    const dir = join(file, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    // saveFile: a new file beside it, renamed over the old one; a failed write leaves the old cache.
    await saveFile(file, `${JSON.stringify({ ...kept, [key]: entry })}\n`, 0o600);
  } catch {
    // A cache that cannot be written (a read-only home) costs a request next time, nothing more.
  }
}
