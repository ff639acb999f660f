import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';

/*
 * Idempotency's rules, in one place (decisions: Idempotency): what a key is scoped to, how a request is
 * fingerprinted, when a repeat replays and when it conflicts, which answers are kept and for how
 * long, the look-up again inside the write, and which answers a reset keeps. The key's format is
 * key.ts; running one request per key at a time is one-at-a-time.ts. Callers only call these: the
 * HTTP plugin (sandbox/plugins/idempotency.ts) reads the header and sends replays, `commit`
 * (sandbox/routes/route.ts) stores the answer with the effect, inbound payments dedupe on
 * provider_reference with the same fingerprint rule (inbound.service.ts), and a reset keeps the
 * answers its caller names (reset/reset.service.ts).
 */

/** How long a key is remembered, on its developer's clock (decisions: Idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What a key names, beside its developer: the operation as its caller's surface names it, a
 * method and a route pattern with its decoded parameters, never the raw URL, so two spellings of
 * one path are one operation.
 */
export interface IdempotentOperation {
  method: string;
  route: string;
  params?: unknown;
}

/** What an Idempotency-Key is scoped to (decisions: Idempotency): the developer, the operation and the key. */
export interface IdempotencyScope {
  developerId: string;
  method: string;
  /** The route pattern and its decoded parameters as canonical JSON (`operationPath`). */
  path: string;
  key: string;
}

/** A request that carries a key: its scope and the fingerprint of its body. */
export interface KeyedRequest {
  scope: IdempotencyScope;
  hash: string;
}

export type Replay = { status: number; body: string };
export type Claim = { kind: 'new' } | ({ kind: 'replay' } & Replay);

/** JSON with sorted keys, so the same body in another key order is the same request. Bodies nest at most MAX_DEPTH (sandbox/plugins/body.ts). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A fingerprint of text: two requests are the same request when their fingerprints are equal. */
export function fingerprintText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A request body's fingerprint, taken of the body as it came (validation may trim or default it),
 * with its keys sorted.
 * @example fingerprint({ amount: 100, narration: 'rent' }) === fingerprint({ narration: 'rent', amount: 100 })
 */
export function fingerprint(body: unknown): string {
  return fingerprintText(canonical(body));
}

/** The stored form of an operation: the route, then its parameters as canonical JSON. */
export function operationPath(operation: IdempotentOperation): string {
  return `${operation.route} ${canonical(operation.params ?? {})}`;
}

/** @example scopeOf(developerId, { method: 'POST', route, params }, key) */
export function scopeOf(developerId: string, operation: IdempotentOperation, key: string): IdempotencyScope {
  return { developerId, method: operation.method, path: operationPath(operation), key };
}

/** One string per scope: requests with equal names are duplicates of one another. */
export function scopeName(scope: IdempotencyScope): string {
  return JSON.stringify([scope.developerId, scope.method, scope.path, scope.key]);
}

/**
 * The rule every idempotent record follows, a key's stored answer and an inbound payment's
 * provider_reference alike: a repeat with the fingerprint it was first seen with is the same
 * request and replays; with another it is IDEMPOTENCY_KEY_REUSED, `message` saying what was reused.
 * @example sameRequestOrConflict(stored.request_hash, hash, 'this Idempotency-Key was already used with a different request');
 */
export function sameRequestOrConflict(storedHash: string, hash: string, message: string): void {
  if (storedHash !== hash) throw new LedgerError('IDEMPOTENCY_KEY_REUSED', message);
}

/** Whether an answer with this status is kept for replay: a 400 (the request was refused as it stood) and a 5xx (nothing may have happened) are not. */
export function answerKept(status: number): boolean {
  return status !== 400 && status < 500;
}

/**
 * Looks up a key's stored answer. A live one with the same request replays; with a different
 * request it is IDEMPOTENCY_KEY_REUSED; none (or an expired one) means the request runs.
 * The caller holds the key's lock (one-at-a-time.ts), so no other request with it runs in this process.
 * @example const claim = await lookupKey(db, env, scope, fingerprint(body));
 */
export async function lookupKey(
  trx: Trx,
  env: EngineEnv,
  scope: IdempotencyScope,
  requestHash: string,
): Promise<Claim> {
  const existing = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_status', 'response_body', 'created_at'])
    .where('developer_id', '=', scope.developerId)
    .where('method', '=', scope.method)
    .where('path', '=', scope.path)
    .where('key', '=', scope.key)
    .executeTakeFirst();
  if (
    !existing ||
    existing.state !== 'DONE' ||
    env.clock.now().getTime() - Date.parse(existing.created_at) >= IDEMPOTENCY_TTL_MS
  )
    return { kind: 'new' };
  sameRequestOrConflict(
    existing.request_hash,
    requestHash,
    'this Idempotency-Key was already used with a different request',
  );
  return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
}

/**
 * The look-up again, inside the write that would run the request's effect, which runs alone in the
 * developer's lane: another server on the same database may have run this key since the look-up
 * before the handler. A stored answer comes back to be replayed, and the effect must not run.
 * @example const replay = await replayInWrite(trx, env, { scope, hash }); if (replay) return { replay };
 */
export async function replayInWrite(trx: Trx, env: EngineEnv, keyed: KeyedRequest): Promise<Replay | undefined> {
  const claim = await lookupKey(trx, env, keyed.scope, keyed.hash);
  return claim.kind === 'replay' ? { status: claim.status, body: claim.body } : undefined;
}

/**
 * Stores the answer a key will replay, replacing an expired one. Operations that change state call
 * it inside the transaction of their effect, so the effect and its replay commit together or not at all.
 * @example await storeKey(trx, env, scope, hash, 201, body);
 */
export async function storeKey(
  trx: Trx,
  env: EngineEnv,
  scope: IdempotencyScope,
  requestHash: string,
  status: number,
  body: string,
): Promise<void> {
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
    .onConflict((oc) =>
      oc.columns(['developer_id', 'method', 'path', 'key']).doUpdateSet({
        request_hash: row.request_hash,
        state: row.state,
        response_status: status,
        response_body: body,
        created_at: row.created_at,
      }),
    )
    .execute();
}

/**
 * The stored answers of these operations (each without parameters), as a condition on
 * `idempotency_keys`: a reset keeps the answers of operations whose effects it keeps, or a retry
 * after the reset would run the operation a second time.
 */
export function answersOf(operations: readonly IdempotentOperation[]): RawBuilder<unknown> {
  if (operations.length === 0) return sql`FALSE`;
  return sql.join(
    operations.map((operation) => sql`(method = ${operation.method} AND path = ${operationPath(operation)})`),
    sql` OR `,
  );
}

/**
 * Claims of an earlier version, which wrote IN_FLIGHT rows, left by a process that died: no
 * request is running at start-up, so they are dropped. This version keeps claims in memory only.
 */
export async function releaseInterrupted(trx: Trx): Promise<number> {
  const result = await trx.deleteFrom('idempotency_keys').where('state', '=', 'IN_FLIGHT').executeTakeFirst();
  return Number(result.numDeletedRows);
}
