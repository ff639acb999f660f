import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onSendHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { invalidField } from '../../engine/errors.js';
import {
  answerKept,
  fingerprint,
  type KeyedRequest,
  lookupKey,
  type Replay,
  scopeOf,
  storeKey,
} from '../../engine/idempotency/idempotency.service.js';
import { keyProblem } from '../../engine/idempotency/key.js';
import { KeyLocks } from '../../engine/idempotency/one-at-a-time.js';
import type { Sandbox } from '../sandbox.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: KeyedRequest;
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

/**
 * `Idempotency-Key` on every POST (decisions: Idempotency): the header read, the route's refusal, and a replay
 * sent with `Idempotent-Replayed: true`. The rules themselves are the engine's
 * (engine/idempotency/): the key's scope and fingerprint, replay or conflict, requests with one
 * key one at a time, what is stored. The key is looked up once the request has passed validation
 * (a malformed request is 400 whatever its key). Nothing is written before the request's own
 * effect, so a request that fails in any way (400, a full disk, a failed COMMIT, a crash) leaves no
 * claim behind and its retry runs once.
 */
export function installIdempotency(app: FastifyInstance, sandbox: Pick<Sandbox, 'write' | 'db'>): void {
  const locks = new KeyLocks(Date.now);

  /** The key and the hash of the body as it came (validation may trim or default it), noted before validation. */
  const noted = new WeakMap<FastifyRequest, { key: string; hash: string }>();

  const noteKey = (request: FastifyRequest, header: string | string[]): void => {
    if (request.routeOptions.config.idempotency === false) {
      throw invalidField(
        'idempotency-key',
        request.routeOptions.config.idempotencyRefusal ??
          'is not accepted here: the answer holds a new API key, which the sandbox never stores, so it could not be replayed',
      );
    }
    const key = Array.isArray(header) ? header[0]! : header;
    const problem = keyProblem(key);
    if (problem) throw invalidField('idempotency-key', problem);
    noted.set(request, { key, hash: fingerprint(request.body) });
  };

  const claimKey = async (
    request: FastifyRequest,
    reply: FastifyReply,
    { key, hash }: { key: string; hash: string },
  ): Promise<unknown> => {
    const scope = scopeOf(
      request.developerId,
      { method: request.method, route: request.routeOptions.url!, params: request.params },
      key,
    );
    const unlock = await locks.hold(scope);
    let claim;
    try {
      claim = await lookupKey(sandbox.db, request.env, scope, hash);
    } catch (error) {
      unlock();
      throw error;
    }
    if (claim.kind === 'replay') {
      unlock();
      return sendReplay(reply, claim);
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

  const storeAnswer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    claim: NonNullable<FastifyRequest['idempotency']>,
  ): Promise<unknown> => {
    request.idempotency = undefined;
    try {
      // Routes that change state stored their answer with their effect (route.ts commit).
      if (!request.idempotencyStored && answerKept(reply.statusCode)) {
        await sandbox
          .write(
            (trx) => storeKey(trx, request.env, claim.scope, claim.hash, reply.statusCode, String(payload)),
            request.developerId,
          )
          .catch(() => {
            // Not remembered (the disk filled up meanwhile): a retry runs again, as after a 5xx.
          });
      }
    } finally {
      request.idempotencyDone?.();
      request.idempotencyDone = undefined;
    }
    return payload;
  };

  app.addHook('onSend', ((
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    next: (error?: Error | null, payload?: unknown) => void,
  ) => {
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

/** A stored answer, sent again as it was, marked as a replay. */
export function sendReplay(reply: FastifyReply, replay: Replay): FastifyReply {
  // The request log's code of a replayed refusal: the stored body is the only place it is kept.
  if (replay.status >= 400) reply.request.errorCode = storedCode(replay.body);
  return reply
    .code(replay.status)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(replay.body);
}

function storedCode(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { detail?: { code?: unknown } }).detail?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
