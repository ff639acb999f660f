import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import { invalidField, LedgerError } from '../../engine/errors.js';
import { type IdempotencyScope, lookupKey, storeKey } from '../../engine/idempotency/idempotency.service.js';
import type { Sandbox } from '../sandbox.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: IdempotencyScope; hash: string };
    /** Set when the route stored its response with its effect (routes/route.ts commit). */
    idempotencyStored?: boolean;
    idempotencyDone?: () => void;
  }
  interface FastifyContextConfig {
    /** false: the route refuses Idempotency-Key (its answer holds a secret that is never stored). */
    idempotency?: boolean;
    /** Why the route refuses Idempotency-Key, when that is not a secret in its answer. */
    idempotencyRefusal?: string;
  }
}

/** How long a duplicate waits for the first request with its key before answering IDEMPOTENCY_KEY_IN_USE. */
export const IN_FLIGHT_WAIT_MS = 10_000;

/** JSON with sorted keys, so the same body in another key order is the same request. Bodies nest at most MAX_DEPTH (body.ts). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * `Idempotency-Key` on every POST (decisions: Idempotency), looked up once the request has passed
 * validation (a malformed request is 400 whatever its key). Requests with one key run one at a
 * time: a lock per key, in this process, the only one serving the database (decisions: Storage).
 * The first runs; each duplicate waits for it (up to 10 s), then finds its stored answer and
 * replays it with `Idempotent-Replayed: true`. Nothing is written before the request's own effect,
 * so a request that fails in any way (400, a full disk, a failed COMMIT, a crash) leaves no claim
 * behind and its retry runs once. Answers of 400 and 5xx are not stored.
 */
export function installIdempotency(app: FastifyInstance, sandbox: Pick<Sandbox, 'write' | 'db'>): void {
  const held = new Map<string, Promise<void>>();

  async function lock(name: string): Promise<() => void> {
    const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
    for (let current = held.get(name); current; current = held.get(name)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new LedgerError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being processed');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise((resolve) => (timer = setTimeout(resolve, remaining)))]);
      clearTimeout(timer);
    }
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    held.set(name, mine);
    return () => {
      if (held.get(name) === mine) held.delete(name);
      release();
    };
  }

  /** The key and the hash of the body as it came (validation may trim or default it), noted before validation. */
  const noted = new WeakMap<FastifyRequest, { key: string; hash: string }>();

  const noteKey = (request: FastifyRequest, header: string | string[]): void => {
    if (request.routeOptions.config.idempotency === false) {
      throw invalidField('idempotency-key', request.routeOptions.config.idempotencyRefusal ?? 'is not accepted here: the answer holds a new API key, which the sandbox never stores, so it could not be replayed');
    }
    const key = Array.isArray(header) ? header[0]! : header;
    if (key.length < 1 || key.length > 255) throw invalidField('idempotency-key', 'must be 1 to 255 characters');
    noted.set(request, { key, hash: createHash('sha256').update(canonical(request.body)).digest('hex') });
  };

  const claimKey = async (request: FastifyRequest, reply: FastifyReply, { key, hash }: { key: string; hash: string }): Promise<unknown> => {
    const scope: IdempotencyScope = {
      developerId: request.developerId,
      method: request.method,
      path: `${request.routeOptions.url} ${canonical(request.params ?? {})}`,
      key,
    };
    const unlock = await lock(JSON.stringify([scope.developerId, scope.method, scope.path, scope.key]));
    let claim;
    try {
      claim = await lookupKey(sandbox.db, request.env, scope, hash);
    } catch (error) {
      unlock();
      throw error;
    }
    if (claim.kind === 'replay') {
      unlock();
      return reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
    }
    request.idempotency = { scope, hash };
    request.idempotencyDone = unlock;
    return undefined;
  };

  // Requests without a key (most) pass each hook at once, with no promise. A request is validated
  // (body, path, query) before its key is looked up: a malformed request is refused whatever its
  // key, and a replay never answers a request that would now be refused.
  app.addHook('preValidation', ((request: FastifyRequest, _reply: FastifyReply, next: HookHandlerDoneFunction) => {
    const header = request.method === 'POST' && request.developerId ? request.headers['idempotency-key'] : undefined;
    if (header === undefined) return next();
    try {
      noteKey(request, header);
    } catch (error) {
      return next(error as Error);
    }
    return next();
  }) as preValidationHookHandler);
  app.addHook('preHandler', ((request: FastifyRequest, reply: FastifyReply, next: HookHandlerDoneFunction) => {
    const note = noted.get(request);
    if (note === undefined) return next();
    return claimKey(request, reply, note);
  }) as preHandlerHookHandler);

  const storeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: NonNullable<FastifyRequest['idempotency']>): Promise<unknown> => {
    request.idempotency = undefined;
    try {
      // Routes that change state stored their answer with their effect (route.ts commit).
      if (!request.idempotencyStored && reply.statusCode !== 400 && reply.statusCode < 500) {
        await sandbox.write((trx) => storeKey(trx, request.env, claim.scope, claim.hash, reply.statusCode, String(payload)), request.developerId).catch(() => {
          // Not remembered (the disk filled up meanwhile): a retry runs again, as after a 5xx.
        });
      }
    } finally {
      request.idempotencyDone?.();
      request.idempotencyDone = undefined;
    }
    return payload;
  };

  app.addHook('onSend', ((request: FastifyRequest, reply: FastifyReply, payload: unknown, next: (error?: Error | null, payload?: unknown) => void) => {
    const claim = request.idempotency;
    if (!claim) return next();
    return storeAnswer(request, reply, payload, claim);
  }) as onSendHookHandler);

  // A request that never reaches onSend (the client went away mid-request) still lets go of its key.
  app.addHook('onResponse', (request, _reply, next) => {
    request.idempotencyDone?.();
    next();
  });
}
