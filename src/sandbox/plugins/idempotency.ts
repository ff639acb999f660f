import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { invalidField, LedgerError } from '../../engine/errors.js';
import { type IdempotencyScope, claimKey, completeKey, release } from '../../engine/idempotency/idempotency.service.js';
import type { Sandbox } from '../sandbox.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencyScope;
    /** Set when the route stored its response with its effect (routes/route.ts commit). */
    idempotencyStored?: boolean;
    idempotencyDone?: () => void;
  }
}

/** How long a duplicate waits for the first request with its key before answering IDEMPOTENCY_KEY_IN_USE. */
export const IN_FLIGHT_WAIT_MS = 10_000;

/** JSON with sorted keys, so the same body in another key order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The body's canonical text; a body nested too deeply to walk is refused (400), never a 500. */
function canonicalBody(body: unknown): string {
  try {
    return canonical(body);
  } catch (error) {
    if (error instanceof RangeError) throw invalidField('body', 'is nested too deeply');
    throw error;
  }
}

/**
 * `Idempotency-Key` on every POST (contract §3): the first response is stored and replayed with
 * `Idempotent-Replayed: true`; validation failures (400) and server errors are not stored.
 */
export function installIdempotency(app: FastifyInstance, { write, env }: Pick<Sandbox, 'write' | 'env'>): void {
  /** Requests of this process still running, by scope: a duplicate waits for the first instead of failing. */
  const running = new Map<string, Promise<void>>();
  const scopeKey = (scope: IdempotencyScope) => JSON.stringify([scope.developerId, scope.method, scope.path, scope.key]);

  async function claimOrWait(scope: IdempotencyScope, hash: string) {
    const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
    for (;;) {
      try {
        return await write((trx) => claimKey(trx, env, scope, hash));
      } catch (error) {
        const first = running.get(scopeKey(scope));
        const remaining = deadline - Date.now();
        if (!(error instanceof LedgerError) || error.code !== 'IDEMPOTENCY_KEY_IN_USE' || !first || remaining <= 0) throw error;
        await Promise.race([first, new Promise((resolve) => setTimeout(resolve, remaining))]);
      }
    }
  }

  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST' || !request.developerId) return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (key.length < 1 || key.length > 255) throw invalidField('idempotency-key', 'must be 1 to 255 characters');
    const scope: IdempotencyScope = { developerId: request.developerId, method: request.method, path: request.url.split('?')[0]!, key };
    const hash = createHash('sha256').update(canonicalBody(request.body)).digest('hex');
    const claim = await claimOrWait(scope, hash);
    if (claim.kind === 'replay') {
      return reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
    }
    request.idempotency = scope;
    let finish!: () => void;
    running.set(scopeKey(scope), new Promise<void>((resolve) => (finish = resolve)));
    request.idempotencyDone = () => {
      running.delete(scopeKey(scope));
      finish();
    };
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const scope = request.idempotency;
    if (!scope) return payload;
    request.idempotency = undefined;
    try {
      if (request.idempotencyStored) {
        // Stored already, in the same transaction as the effect.
      } else if (reply.statusCode === 400 || reply.statusCode >= 500) await write((trx) => release(trx, scope));
      else await write((trx) => completeKey(trx, scope, reply.statusCode, String(payload)));
    } finally {
      request.idempotencyDone?.();
    }
    return payload;
  });
}
