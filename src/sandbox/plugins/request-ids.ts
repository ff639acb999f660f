import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { reserveRequestNumbers, returnRequestNumbers } from '../../engine/requests/requests.repository.js';
import { developerRequestId } from '../../api/request-id.js';
import type { Sandbox } from '../sandbox.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of this request (the `request-id` header, `detail.request_id`); '' until one is given (see requestIdOf). */
    requestId: string;
    /** The developer's number of this request, which its id spells; 0 for a request of no developer. */
    requestNumber: number;
    /** When it arrived, in epoch milliseconds: on the developer's clock, and real. */
    arrivedAt: number;
    arrivedReal: number;
  }
  interface FastifyInstance {
    requestIds: RequestIds;
  }
}

/** Request numbers a server takes at once: one write per block, never one per request. */
const BLOCK = 100;

/** The id of a request of no developer (no key, a bad one, a public route): a separate count, of another form. */
const anonymousRequestId = (number: number) => `req_anon_${String(number).padStart(8, '0')}`;

/** Refusals written on a connection with no request (the HTTP parser's): counted apart, per process. */
let connectionRefusals = 0;
export const connectionRequestId = () => `req_conn_${String(++connectionRefusals).padStart(8, '0')}`;

export interface RequestIds {
  /** The next number of a developer: at once from this server's block, or once a new block is taken. */
  take(developerId: string): number | Promise<number>;
  /** The next id of a request of no developer. */
  anonymous(): string;
}

/** The id of a request, given at first need to one that has none (a request of no developer). */
export function requestIdOf(request: FastifyRequest): string {
  // A request the router refused (a path that is not valid percent-encoding) is not decorated.
  if (!request.requestId) request.requestId = request.server?.requestIds?.anonymous() ?? connectionRequestId();
  return request.requestId;
}

/**
 * Gives every request its id and every answer its `request-id` header (decisions: Request log). A
 * developer's requests are numbered in order, from blocks of numbers this server takes from the
 * database, so that ids are deterministic on a seeded sandbox and unique across servers sharing a
 * PostgreSQL database. Installed after auth: the developer is known by then.
 */
export function installRequestIds(app: FastifyInstance, sandbox: Pick<Sandbox, 'write'>): void {
  /** Each developer's block in use, and the next one, taken before this one runs out. */
  const blocks = new Map<string, { next: number; last: number; spare?: number }>();
  const taking = new Map<string, Promise<void>>();
  let anonymous = 0;

  const takeBlock = (developerId: string): Promise<void> => {
    let pending = taking.get(developerId);
    if (!pending) {
      pending = sandbox
        .write((trx) => reserveRequestNumbers(trx, developerId, BLOCK))
        .then(
          (last) => {
            const block = blocks.get(developerId);
            if (block && block.next <= block.last) block.spare = last;
            else blocks.set(developerId, { next: last - BLOCK + 1, last });
          },
          () => {
            // Not recorded (a full or read-only disk): the request is still served, numbered on from here.
            const block = blocks.get(developerId);
            const next = block ? Math.max(block.last, block.spare ?? 0) + 1 : 1;
            if (block && block.next <= block.last) block.spare = next + BLOCK - 1;
            else blocks.set(developerId, { next, last: next + BLOCK - 1 });
          },
        )
        .finally(() => taking.delete(developerId));
      taking.set(developerId, pending);
    }
    return pending;
  };
  const take = (developerId: string): number | Promise<number> => {
    const block = blocks.get(developerId);
    if (block && block.next > block.last && block.spare !== undefined)
      blocks.set(developerId, { next: block.spare - BLOCK + 1, last: block.spare });
    const current = blocks.get(developerId);
    if (!current || current.next > current.last) return takeBlock(developerId).then(() => take(developerId));
    // The next block is taken while this one still has numbers: only a developer's first request waits for one.
    if (current.spare === undefined && current.last - current.next < BLOCK / 4) void takeBlock(developerId);
    return current.next++;
  };
  app.decorate('requestIds', { take, anonymous: () => anonymousRequestId(++anonymous) });

  // Numbers not used go back, so that a sandbox started again goes on where it stopped.
  app.addHook('onClose', async () => {
    await Promise.all(taking.values());
    for (const [developerId, { next, last, spare }] of blocks)
      await sandbox.write((trx) => returnRequestNumbers(trx, developerId, spare ?? last, next - 1)).catch(() => {});
    blocks.clear();
  });

  app.decorateRequest('requestId', '');
  app.decorateRequest('requestNumber', 0);
  app.decorateRequest('arrivedAt', 0);
  app.decorateRequest('arrivedReal', 0);
  const given = (request: FastifyRequest, number: number) => {
    request.requestNumber = number;
    request.requestId = developerRequestId(number);
  };
  app.addHook('onRequest', ((request: FastifyRequest, _reply, next: HookHandlerDoneFunction) => {
    if (!request.developerId) return next();
    request.arrivedReal = Date.now();
    request.arrivedAt = request.env.clock.now().getTime();
    const number = take(request.developerId);
    if (typeof number === 'number') {
      given(request, number);
      return next();
    }
    return number.then((n) => given(request, n));
  }) as onRequestHookHandler);
  app.addHook('onSend', (request, reply, _payload, next) => {
    reply.header('request-id', requestIdOf(request));
    next();
  });
}
