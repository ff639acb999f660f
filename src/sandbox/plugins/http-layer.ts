import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
} from 'fastify';
import { HTTP_STATUS } from '../../api/errors.js';
import { IdempotencyHeaders, NoBody, NoQuery } from '../../api/schemas/common.js';
import { errors, standardErrors } from '../../api/schemas/responses.js';
import { invalidField, LedgerError } from '../../engine/errors.js';
import { errorBody, sendError } from './errors.js';
import { connectionRequestId } from './request-ids.js';

/** The longest request target (path and query string together): 414 URI_TOO_LONG beyond. */
export const MAX_URL_LENGTH = 8 * 1024;
/** The request line and headers together, as Node's parser counts them: 431 HEADERS_TOO_LARGE beyond. */
export const MAX_HEADER_SIZE = 16 * 1024;

const uriTooLong = () =>
  new LedgerError('URI_TOO_LONG', `the URL is longer than ${MAX_URL_LENGTH} bytes (path and query string together)`);
const notValidHttp = (why: string) =>
  new LedgerError('VALIDATION_ERROR', `the request is not valid HTTP/1.1: ${why}`, [
    { field: 'request', message: why },
  ]);

/**
 * Fastify and Node server options for what the HTTP layer refuses before any route runs, so that it
 * too is answered in the documented shape (decisions: Requests and validation).
 */
export const httpLayerOptions = {
  // Routing never refuses a long path identifier by itself: one up to the URL limit reaches its
  // route, which answers 404 as for any id that is not the caller's.
  routerOptions: { maxParamLength: MAX_URL_LENGTH },
  // A request that arrives during a graceful stop is refused by the hook below, in the documented shape.
  return503OnClosing: false,
  // A request without Host is served: nothing here depends on it, and Node would refuse it with a bare 400.
  http: { maxHeaderSize: MAX_HEADER_SIZE, requireHostHeader: false },
  clientErrorHandler,
  frameworkErrors,
};

/** Node's HTTP parser refused the bytes on a connection: answer on the socket itself, then close it. */
function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  const response = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  let refusal: LedgerError;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // At run time the packet is the Buffer the parser stopped in (Fastify's type says otherwise).
    const packet: unknown = error.rawPacket;
    refusal = requestLineTooLong(Buffer.isBuffer(packet) ? packet : undefined)
      ? uriTooLong()
      : new LedgerError(
          'HEADERS_TOO_LARGE',
          `the request line and headers are larger than ${MAX_HEADER_SIZE} bytes together`,
        );
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    refusal = notValidHttp('the request did not arrive in time');
  } else {
    const { reason } = error as { reason?: unknown };
    refusal = notValidHttp(typeof reason === 'string' && reason ? reason : error.code || 'malformed request');
  }
  refuseOnSocket(socket, refusal);
}

/** Writes a refusal straight on a connection that has no request object, and closes it. */
function refuseOnSocket(socket: Duplex, refusal: LedgerError): void {
  const status = HTTP_STATUS[refusal.code];
  const id = connectionRequestId();
  const body = JSON.stringify(errorBody(refusal, id));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\nrequest-id: ${id}` +
      `\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  // Closing at once could reset the connection before the client reads the answer; a client that
  // never closes its side does not keep the socket for long either.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/** CONNECT never reaches Fastify, and Node would close the connection without a word: no such route. */
export function refuseConnect(server: Server): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) =>
    refuseOnSocket(socket, new LedgerError('NOT_FOUND', `no route CONNECT ${request.url ?? ''}`.slice(0, 200))),
  );
}

/** Whether the parser's packet starts with a request line that alone passes the URL limit. */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const end = packet.indexOf('\r\n');
  return end === -1 || end > MAX_URL_LENGTH;
}

/** What the router refuses before any hook: a path that is not valid percent-encoding, a path identifier past maxParamLength. */
function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') sendError(reply, badEncoding('path'));
  else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') sendError(reply, uriTooLong());
  else sendError(reply, new LedgerError('INTERNAL_ERROR', 'internal error: the sandbox log has the details'));
}

const badEncoding = (field: string) => invalidField(field, 'is not valid percent-encoding (UTF-8)');

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/** The first part of a URL that is not valid percent-encoding, named by its query parameter where it has one. */
function encodingProblem(url: string): LedgerError | undefined {
  const mark = url.indexOf('?');
  if (!decodes(mark === -1 ? url : url.slice(0, mark))) return badEncoding('path');
  if (mark === -1) return undefined;
  for (const pair of url.slice(mark + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (!decodes(name)) return badEncoding('query');
    if (!decodes(equals === -1 ? '' : pair.slice(equals + 1)))
      return badEncoding(decodeURIComponent(name.replace(/\+/g, ' ')));
  }
  return undefined;
}

/**
 * Checks every request before any other hook: the URL's length and percent-encoding, and whether
 * the sandbox is shutting down (503 in the documented shape, where Fastify would answer its own).
 */
export function installRequestChecks(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A hook that answers calls no done; one that passes calls it at once, with no promise (hook.ts).
  app.addHook('onRequest', (request, reply, done) => {
    if (closing)
      return void sendError(
        reply,
        new LedgerError(
          'STORAGE_UNAVAILABLE',
          'the sandbox is shutting down: send the request again once it has restarted',
        ),
      );
    const url = request.raw.url ?? '/';
    if (url.length > MAX_URL_LENGTH) return void sendError(reply, uriTooLong());
    // Without a '%' every part decodes ('+' is only a space).
    const problem = url.includes('%') ? encodingProblem(url) : undefined;
    if (problem) return void sendError(reply, problem);
    done();
  });
}

/**
 * Completes every route's schema as it is registered: a route with no query schema takes no query
 * parameters (each is refused by name), a write with no body schema takes no body fields (likewise),
 * and every route in the OpenAPI document declares the
 * error statuses its kind answers (api/schemas/responses.ts) besides its own.
 */
export function installRouteDefaults(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema: FastifySchema & { hide?: boolean } = (route.schema ??= {});
    schema.querystring ??= NoQuery;
    // A write that takes no body refuses one with fields (`POST /sandbox/reset {"all": true}` reset the caller only).
    if (route.config?.public !== true && [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD'))
      schema.body ??= NoBody;
    if (schema.hide) return;
    const standard = standardErrors({
      method: String(route.method),
      public: route.config?.public === true,
      params: route.url.includes(':'),
      idempotent: schema.headers === IdempotencyHeaders,
    });
    schema.response = { ...errors(...standard), ...(schema.response as object | undefined) };
  });
}
