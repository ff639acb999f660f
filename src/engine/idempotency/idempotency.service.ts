import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';

/** How long a key is remembered, on its developer's clock (decisions: Idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What an Idempotency-Key is scoped to (decisions: Idempotency): the developer, the method, and the route
 * with its decoded path parameters, never the raw URL, so two spellings of one path are one scope.
 */
export interface IdempotencyScope {
  developerId: string;
  method: string;
  /** The route pattern and its decoded parameters, e.g. `/v1/wallets/:wallet_id/transfer {"wallet_id":"…"}`. */
  path: string;
  key: string;
}

export type Claim = { kind: 'new' } | { kind: 'replay'; status: number; body: string };

/**
 * Looks up a key's stored answer. A live one with the same request replays; with a different
 * request it is IDEMPOTENCY_KEY_REUSED; none (or an expired one) means the request runs.
 * The caller holds the key's in-process lock, so no other request with it is running.
 * @example const claim = await lookupKey(db, env, scope, sha256(body));
 */
export async function lookupKey(trx: Trx, env: EngineEnv, scope: IdempotencyScope, requestHash: string): Promise<Claim> {
  const existing = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_status', 'response_body', 'created_at'])
    .where('developer_id', '=', scope.developerId)
    .where('method', '=', scope.method)
    .where('path', '=', scope.path)
    .where('key', '=', scope.key)
    .executeTakeFirst();
  if (!existing || existing.state !== 'DONE' || env.clock.now().getTime() - Date.parse(existing.created_at) >= IDEMPOTENCY_TTL_MS) return { kind: 'new' };
  if (existing.request_hash !== requestHash) {
    throw new LedgerError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used with a different request');
  }
  return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
}

/**
 * Stores the answer a key will replay, replacing an expired one. Routes that change state call it
 * inside the transaction of their effect, so the effect and its replay commit together or not at all.
 */
export async function storeKey(trx: Trx, env: EngineEnv, scope: IdempotencyScope, requestHash: string, status: number, body: string): Promise<void> {
  const row = {
    developer_id: scope.developerId,
    method: scope.method,
    path: scope.path,
    key: scope.key,
    request_hash: requestHash,
    state: 'DONE' as const,
    response_status: status,
    response_body: body,
    created_at: env.clock.now().toISOString(),
  };
  await trx
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['developer_id', 'method', 'path', 'key']).doUpdateSet({ request_hash: row.request_hash, state: row.state, response_status: status, response_body: body, created_at: row.created_at }))
    .execute();
}

/**
 * Claims of an earlier version, which wrote IN_FLIGHT rows, left by a process that died: no
 * request is running at start-up, so they are dropped. This version keeps claims in memory only.
 */
export async function releaseInterrupted(trx: Trx): Promise<number> {
  const result = await trx.deleteFrom('idempotency_keys').where('state', '=', 'IN_FLIGHT').executeTakeFirst();
  return Number(result.numDeletedRows);
}
