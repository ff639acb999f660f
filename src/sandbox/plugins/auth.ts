import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import { authenticate, knownKeyOwner } from '../../engine/developers/keys.js';
import type { EngineEnv } from '../../engine/env.js';
import { scopeName, scopeOf } from '../../engine/idempotency/idempotency.service.js';
import { LedgerError } from '../../engine/errors.js';
import { cookieValue, SESSION_COOKIE, type Sessions } from '../dashboard/sessions.js';
import type { Sandbox } from '../sandbox.js';
import { sendError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    developerId: string;
    /** The calling developer's engine environment: its own virtual clock (decisions: Tenancy, clocks and reset). */
    env: EngineEnv;
    /** Whether and as what the request log records this request: the dashboard's reads are not recorded. */
    logAs: 'api' | 'dashboard' | 'none';
  }
  interface FastifyContextConfig {
    /** The route needs no x-api-key (health, OpenAPI, the webhook receiver). */
    public?: boolean;
  }
  interface FastifyInstance {
    /** Each developer's requests that may write, from when they start until they answer. */
    developerWrites: DeveloperWrites;
    /** Marks a write request done (see installWriteRelease). */
    releaseWrite(request: FastifyRequest): void;
  }
}

export interface DeveloperWrites {
  /**
   * Resolves once none of the developer's write requests is running but `except` (the caller's own)
   * and its duplicates: requests with its Idempotency-Key, which wait for it to answer and replay that.
   * Waited for, they would wait for it in turn, until one gave up (seen: a reset sent twice at once
   * stalled 10 s, and its duplicate got IDEMPOTENCY_KEY_IN_USE instead of the replay).
   */
  settled(developerId: string, except?: FastifyRequest): Promise<void>;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * Every matched route but the public ones needs a live svc_test_ key (decisions: Keys and secrets).
 * A developer the sandbox holds (a reset under way) waits here before its request starts. Requests
 * that may write are tracked from here until they answer, so a reset can wait for them to finish.
 */
export function installAuth(
  app: FastifyInstance,
  sandbox: Pick<Sandbox, 'db' | 'envFor' | 'whenFree' | 'isHeld' | 'refresh'>,
  sessions: Sessions,
): void {
  const running = new Map<string, Map<FastifyRequest, Promise<void>>>();
  const done = new WeakMap<FastifyRequest, () => void>();
  /** What a running write with an Idempotency-Key is a duplicate of: its key's scope, as the idempotency plugin locks it. */
  const keyed = new WeakMap<FastifyRequest, string>();

  app.decorateRequest('developerId', '');
  app.decorateRequest('env', null as unknown as EngineEnv);
  if (!app.hasRequestDecorator('logAs')) app.decorateRequest('logAs', 'api');
  app.decorate('developerWrites', {
    async settled(developerId: string, except?: FastifyRequest) {
      for (;;) {
        const same = except && keyed.get(except);
        const others = [...(running.get(developerId) ?? new Map<FastifyRequest, Promise<void>>()).entries()].filter(
          ([request]) => request !== except && (same === undefined || keyed.get(request) !== same),
        );
        if (others.length === 0) return;
        await Promise.all(others.map(([, finished]) => finished));
      }
    },
  });
  const keyOf = (request: FastifyRequest) => {
    const header = request.headers['x-api-key'];
    return Array.isArray(header) ? header[0] : header;
  };
  const admit = async (request: FastifyRequest, dashboardDeveloper?: string): Promise<void> => {
    const developerId = dashboardDeveloper ?? (await authenticate(sandbox.db, keyOf(request)));
    await sandbox.whenFree(developerId);
    await sandbox.refresh(developerId);
    admitted(request, developerId);
  };
  const admitted = (request: FastifyRequest, developerId: string): void => {
    request.developerId = developerId;
    request.env = sandbox.envFor(developerId);
    if (READS.has(request.method)) return;
    const key = request.headers['idempotency-key'];
    if (request.method === 'POST' && key !== undefined) {
      keyed.set(
        request,
        scopeName(
          scopeOf(
            developerId,
            { method: request.method, route: request.routeOptions.url!, params: request.params },
            Array.isArray(key) ? key[0]! : key,
          ),
        ),
      );
    }
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const mine = running.get(developerId) ?? new Map<FastifyRequest, Promise<void>>();
    running.set(developerId, mine);
    mine.set(request, finished);
    done.set(request, () => {
      mine.delete(request);
      if (mine.size === 0 && running.get(developerId) === mine) running.delete(developerId);
      finish();
    });
  };
  // A public route (or none) passes at once, with no promise (see http-layer.ts installRequestChecks).
  app.addHook('onRequest', ((request: FastifyRequest, reply: FastifyReply, next: HookHandlerDoneFunction) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.public) return next();
    const dashboard = keyOf(request) === undefined ? dashboardDeveloper(request, sessions) : undefined;
    if (dashboard instanceof LedgerError) return void sendError(reply, dashboard);
    if (dashboard !== undefined) {
      request.logAs = READS.has(request.method) ? 'none' : 'dashboard';
      if (sandbox.isHeld(dashboard)) return admit(request, dashboard);
      admitted(request, dashboard);
      return next();
    }
    // A key the connection already knows, of a developer not held: admitted now, with no promise.
    const known = knownKeyOwner(sandbox.db, keyOf(request));
    if (known === undefined || sandbox.isHeld(known)) return admit(request);
    admitted(request, known);
    next();
  }) as onRequestHookHandler);
  app.decorate('releaseWrite', (request: FastifyRequest) => {
    done.get(request)?.();
    done.delete(request);
  });
}

/**
 * The developer of a dashboard session, for a request that carries the session cookie together with
 * `x-ledger-dashboard: 1`, a header a plain cross-site form or link cannot send; a write must also
 * come from the sandbox's own origin (decisions: Dashboard). A cookie without the header is ignored.
 */
function dashboardDeveloper(request: FastifyRequest, sessions: Sessions): string | LedgerError | undefined {
  if (request.headers['x-ledger-dashboard'] !== '1') return undefined;
  const developerId = sessions.developerOf(cookieValue(request.headers.cookie, SESSION_COOKIE));
  if (developerId === undefined || READS.has(request.method)) return developerId;
  return request.headers.origin === ownOrigin(request)
    ? developerId
    : new LedgerError(
        'FORBIDDEN_ORIGIN',
        `a dashboard request that changes something must come from the dashboard's own page (Origin ${ownOrigin(request)})`,
      );
}

/** The origin a browser names when a page of this server sends a request: the scheme and the Host it was reached by. */
export function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? ''}`;
}

/**
 * A write request is done once it answers: installed after every other onSend hook (the
 * idempotency plugin stores some answers there), and on onResponse should a reply skip onSend.
 */
export function installWriteRelease(app: FastifyInstance): void {
  app.addHook('onSend', (request, _reply, _payload, next) => {
    app.releaseWrite(request);
    next();
  });
  app.addHook('onResponse', (request, _reply, next) => {
    app.releaseWrite(request);
    next();
  });
}
