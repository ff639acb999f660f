import { createHash } from 'node:crypto';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';

export const TEST_KEY_PREFIX = 'svc_test_';
export const LIVE_KEY_PREFIX = 'svc_live_';

/** Keys are stored as SHA-256 digests: a leaked database does not leak a usable key. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function hint(key: string): string {
  return `${key.slice(0, TEST_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
}

/**
 * Issues a new `svc_test_` key for the developer and revokes every earlier one at once.
 * Returns the plain key: the only moment it exists outside the caller's hands.
 * @example const key = await issueKey(trx, env, developerId);
 */
export async function issueKey(trx: Trx, env: EngineEnv, developerId: string): Promise<string> {
  const now = env.clock.now().toISOString();
  const key = `${TEST_KEY_PREFIX}${env.ids.base62(32)}`;
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('developer_id', '=', developerId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx
    .insertInto('api_keys')
    .values({ id: env.ids.uuid(), developer_id: developerId, key_hash: hashKey(key), key_hint: hint(key), created_at: now })
    .execute();
  return key;
}

/**
 * Finds the developer a key belongs to, or throws UNAUTHORIZED (contract §2).
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

const keyOwner = prepare((db, p: { hash: string }) => db.selectFrom('api_keys').select('developer_id').where('key_hash', '=', p.hash).where('revoked_at', 'is', null));

export async function currentKeyInfo(trx: Trx, developerId: string) {
  return trx
    .selectFrom('api_keys')
    .select(['key_hint', 'created_at'])
    .where('developer_id', '=', developerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}
