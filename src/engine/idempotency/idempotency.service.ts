import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';

/** How long a key is remembered (contract §3). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyScope {
  developerId: string;
  method: string;
  path: string;
  key: string;
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: string };

function scoped(trx: Trx, scope: IdempotencyScope) {
  return trx
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('developer_id', '=', scope.developerId)
    .where('method', '=', scope.method)
    .where('path', '=', scope.path)
    .where('key', '=', scope.key);
}

/**
 * Claims an Idempotency-Key for a request, or answers with what the first request returned.
 * Throws IDEMPOTENCY_KEY_REUSED for a different request and IDEMPOTENCY_KEY_IN_USE while the first still runs.
 * @example const claim = await claimKey(db, env, scope, sha256(body));
 */
export async function claimKey(trx: Trx, env: EngineEnv, scope: IdempotencyScope, requestHash: string): Promise<Claim> {
  const now = env.clock.now();
  const existing = await scoped(trx, scope).executeTakeFirst();
  if (existing && now.getTime() - Date.parse(existing.created_at) < IDEMPOTENCY_TTL_MS) {
    if (existing.request_hash !== requestHash) {
      throw new LedgerError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used with a different request');
    }
    if (existing.state === 'IN_FLIGHT') {
      throw new LedgerError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being processed');
    }
    return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
  }
  if (existing) await release(trx, scope);
  await trx
    .insertInto('idempotency_keys')
    .values({
      developer_id: scope.developerId,
      method: scope.method,
      path: scope.path,
      key: scope.key,
      request_hash: requestHash,
      state: 'IN_FLIGHT',
      response_status: null,
      response_body: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { kind: 'claimed' };
}

/** Stores the response a claimed key will replay. */
export async function completeKey(trx: Trx, scope: IdempotencyScope, status: number, body: string): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ state: 'DONE', response_status: status, response_body: body })
    .where('developer_id', '=', scope.developerId)
    .where('method', '=', scope.method)
    .where('path', '=', scope.path)
    .where('key', '=', scope.key)
    .execute();
}

/** Forgets a claim: the request was rejected before it did anything, so a corrected retry may reuse the key. */
export async function release(trx: Trx, scope: IdempotencyScope): Promise<void> {
  await trx
    .deleteFrom('idempotency_keys')
    .where('developer_id', '=', scope.developerId)
    .where('method', '=', scope.method)
    .where('path', '=', scope.path)
    .where('key', '=', scope.key)
    .execute();
}

/**
 * At start-up no request is running, so an IN_FLIGHT claim belongs to a request that died with the
 * process. Its effect never committed (effects and their stored responses commit together), so the
 * claim is dropped and a retry with the same key runs afresh.
 */
export async function releaseInterrupted(trx: Trx): Promise<number> {
  const result = await trx.deleteFrom('idempotency_keys').where('state', '=', 'IN_FLIGHT').executeTakeFirst();
  return Number(result.numDeletedRows);
}
