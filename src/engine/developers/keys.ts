import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';
import { secretSource } from '../secrets.js';
import type { ApiKeyTable } from './developers.table.js';

export const TEST_KEY_PREFIX = 'svc_test_';
export const LIVE_KEY_PREFIX = 'svc_live_';

/** The digests of the keys seen last (every request hashes its key): at most HASHES_KEPT, all forgotten when full. */
const hashes = new Map<string, string>();
const HASHES_KEPT = 64;

/** Keys are stored as SHA-256 digests: a leaked database does not leak a usable key. */
export function hashKey(key: string): string {
  let digest = hashes.get(key);
  if (digest === undefined) {
    digest = createHash('sha256').update(key).digest('hex');
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hashes.set(key, digest);
  }
  return digest;
}

function hint(key: string): string {
  return `${key.slice(0, TEST_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
}

/**
 * Issues a new `svc_test_` key for the developer (or makes `given` its key) and revokes every
 * earlier one at once. Returns the plain key: the only moment it exists outside the caller's hands.
 * @example const key = await issueKey(trx, env, developerId);
 */
export async function issueKey(trx: Trx, env: EngineEnv, developerId: string, given?: string): Promise<string> {
  const now = env.clock.now().toISOString();
  const source = secretSource(env);
  const key = given ?? `${TEST_KEY_PREFIX}${source.base62(32)}`;
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('developer_id', '=', developerId)
    .where('revoked_at', 'is', null)
    .execute();
  // A chosen key may have been this sandbox's before and rotated away since: it becomes current again.
  if (given)
    await trx.deleteFrom('api_keys').where('key_hash', '=', hashKey(key)).where('revoked_at', 'is not', null).execute();
  await trx
    .insertInto('api_keys')
    .values({
      id: source.uuid(),
      developer_id: developerId,
      key_hash: hashKey(key),
      key_hint: hint(key),
      created_at: now,
    })
    .execute();
  return key;
}

/**
 * Finds the developer a key belongs to, or throws UNAUTHORIZED (decisions: Keys and secrets).
 * @example const developerId = await authenticate(db, request.headers['x-api-key']);
 */
export async function authenticate(trx: Trx, key: string | undefined): Promise<string> {
  if (!key) throw new LedgerError('UNAUTHORIZED', 'API key is missing: send it in the x-api-key header');
  if (key.startsWith(LIVE_KEY_PREFIX)) {
    throw new LedgerError('UNAUTHORIZED', 'API key is invalid: live keys (svc_live_) are not accepted by the sandbox');
  }
  const [row] = (await keyOwner(trx, { hash: hashKey(key) })).rows;
  if (!row) throw new LedgerError('UNAUTHORIZED', 'API key is invalid or has been rotated');
  return row.developer_id;
}

/**
 * The developer a key belongs to, when the connection already holds that answer in memory (the
 * kept read of `authenticate`, read outside a transaction and not forgotten since); undefined when
 * it does not, or when the key would be refused: then ask `authenticate`, which reads or refuses.
 */
export function knownKeyOwner(db: Trx, key: string | undefined): string | undefined {
  if (!key || key.startsWith(LIVE_KEY_PREFIX)) return undefined;
  return keyOwner.known(db, { hash: hashKey(key) })?.[0]?.developer_id;
}

// Asked on every request: kept by the connection until a key is issued, rotated, revoked or removed.
const keyOwner = prepare(
  (db, p: { hash: string }) =>
    db.selectFrom('api_keys').select('developer_id').where('key_hash', '=', p.hash).where('revoked_at', 'is', null),
  {
    keptUntil: 'api_keys',
  },
);

export async function currentKeyInfo(trx: Trx, developerId: string) {
  return trx
    .selectFrom('api_keys')
    .select(['key_hint', 'created_at'])
    .where('developer_id', '=', developerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** Every key row, as it is before a snapshot restore replaces them (see `carryKeys`). */
export async function allKeys(trx: Trx): Promise<ApiKeyRow[]> {
  return trx.selectFrom('api_keys').selectAll().execute();
}

/**
 * After a snapshot restore: keys that work keep working. Each developer of the restored state
 * that exists now keeps the keys it has now (the snapshot's for it are dropped); the restored
 * sandbox owner takes the current owner's keys, even when the snapshot came from another sandbox
 * whose owner has another id. A developer only the snapshot has keeps the snapshot's keys; one
 * only the current state has is gone, with its keys.
 * @example await carryKeys(trx, keysBefore, ownerNow, ownerRestored);
 */
export async function carryKeys(trx: Trx, before: ApiKeyRow[], ownerNow: string, ownerRestored: string): Promise<void> {
  const byDeveloper = new Map<string, ApiKeyRow[]>();
  for (const key of before) byDeveloper.set(key.developer_id, [...(byDeveloper.get(key.developer_id) ?? []), key]);
  for (const { id } of await trx.selectFrom('developers').select('id').execute()) {
    // The current owner's keys follow the owner; a former owner that is not the owner now keeps the snapshot's.
    const source = id === ownerRestored ? ownerNow : id === ownerNow ? undefined : id;
    const keys = source === undefined ? undefined : byDeveloper.get(source);
    if (!keys) continue;
    await trx.deleteFrom('api_keys').where('developer_id', '=', id).execute();
    for (const key of keys) {
      await trx
        .deleteFrom('api_keys')
        .where((eb) => eb.or([eb('id', '=', key.id), eb('key_hash', '=', key.key_hash)]))
        .execute();
      await trx
        .insertInto('api_keys')
        .values({ ...key, developer_id: id })
        .execute();
    }
  }
}
