import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import { insertRequests } from '../../engine/requests/requests.repository.js';
import type { RequestLogTable } from '../../engine/requests/requests.table.js';
import { redactedBody, withoutSecrets } from '../redact.js';
import type { Sandbox } from '../sandbox.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Where the request log files this request: an API call, the dashboard's, or not at all. */
    logAs: 'api' | 'dashboard' | 'none';
  }
  interface FastifyInstance {
    requestLog: RequestLog;
  }
}

/** Rows kept per developer unless the app is told otherwise (decisions: Request log). */
export const REQUEST_LOG_KEEP = 1000;
/** The log's own routes are not logged: a `logs tail` reading them would fill the log with itself. */
export const REQUEST_LOG_PATH = '/sandbox/requests';

export interface RequestLog {
  /** Resolves once every request answered so far is in the database. */
  flush(): Promise<void>;
}

/** The longest Idempotency-Key kept (longer ones are refused, and logged cut to this). */
const KEY_CHARS = 255;

/**
 * Records each request of a developer in the request log as it is answered (decisions: Request log):
 * rows wait in memory and are written together, off the request path, a batch at a time; reads of
 * the log and the app's close wait for what is waiting. A request of no developer is not logged.
 */
export function installRequestLog(
  app: FastifyInstance,
  sandbox: Pick<Sandbox, 'write'>,
  keep = REQUEST_LOG_KEEP,
): void {
  let waiting: Insertable<RequestLogTable>[] = [];
  let writing: Promise<void> | undefined;
  let scheduled = false;

  const flush = async (): Promise<void> => {
    while (writing) await writing;
    if (waiting.length === 0) return;
    const rows = waiting;
    waiting = [];
    writing = sandbox
      .write((trx) => insertRequests(trx, rows, keep))
      // A log that cannot be written (a full disk) loses those rows; the requests were answered.
      .then(
        () => {},
        () => {},
      )
      .finally(() => (writing = undefined));
    await writing;
  };
  app.decorate('requestLog', { flush });
  app.addHook('onClose', flush);

  // The dashboard's auth (plugins/auth.ts) may have declared it first.
  if (!app.hasRequestDecorator('logAs')) app.decorateRequest('logAs', 'api');
  app.addHook('onResponse', (request, reply, next) => {
    if (logged(request)) {
      waiting.push(rowOf(request, reply));
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flush();
        });
      }
    }
    next();
  });
}

function logged(request: FastifyRequest): boolean {
  return (
    request.requestNumber > 0 &&
    request.logAs !== 'none' &&
    !(request.routeOptions.url ?? '').startsWith(REQUEST_LOG_PATH)
  );
}

function rowOf(request: FastifyRequest, reply: FastifyReply): Insertable<RequestLogTable> {
  const failed = reply.statusCode >= 400;
  const key = request.headers['idempotency-key'];
  const idempotencyKey = Array.isArray(key) ? key[0] : key;
  return {
    developer_id: request.developerId,
    number: request.requestNumber,
    method: request.method,
    path: withoutSecrets(request.url),
    status: reply.statusCode,
    code: failed ? (request.errorCode ?? null) : null,
    duration_ms: Math.round(reply.elapsedTime),
    idempotency_key: idempotencyKey === undefined ? null : idempotencyKey.slice(0, KEY_CHARS),
    replayed: reply.getHeader('idempotent-replayed') === 'true' ? 1 : 0,
    source: request.logAs,
    at: request.arrivedAt,
    real_at: request.arrivedReal,
    request_body: failed ? redactedBody(request.body, request.unparsedBody) : null,
  };
}
