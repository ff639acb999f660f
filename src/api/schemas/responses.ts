import { z } from 'zod';
import { ERROR_CODES, HTTP_STATUS } from '../errors.js';
import { ErrorBody, EXTENSION_PARAMETER, OPTIONAL_BODY } from './common.js';

/** The HTTP statuses of the error table (decisions: Requests and validation). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 414 | 415 | 422 | 431 | 500 | 503 | 507;

/**
 * A route's own refusals, beyond those every route of its kind answers (`standardErrors`), for its
 * response schema and the OpenAPI document.
 * @example response: { 200: TransferResponse, ...errors(403, 409, 422) }
 */
export function errors(...statuses: ErrorStatus[]): Partial<Record<ErrorStatus, typeof ErrorBody>> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

/** What decides the refusals a route answers whatever it does. */
export interface RouteKind {
  method: string;
  /** Needs no x-api-key. */
  public: boolean;
  /** Has path identifiers. */
  params: boolean;
  /** Takes an Idempotency-Key. */
  idempotent: boolean;
}

/**
 * The error statuses every route of a kind can answer, declared on each by the app (so a new route
 * cannot forget them):
 * - any route: 400 (a query parameter it does not take, bad percent-encoding, malformed HTTP),
 *   414 and 431 (the HTTP layer), 500, and 503 (STORAGE_UNAVAILABLE, or the sandbox shutting down);
 * - with a key: 401; with path identifiers: 404, for what is not the caller's;
 * - with a body (POST, PUT, PATCH): 413 and 415, and 507 STORAGE_FULL (every such route may write);
 * - taking an Idempotency-Key: 409 (IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE).
 */
export function standardErrors(kind: RouteKind): ErrorStatus[] {
  const statuses: ErrorStatus[] = [400, 414, 431, 500, 503];
  if (!kind.public) statuses.push(401);
  if (kind.params) statuses.push(404);
  if (!['GET', 'HEAD'].includes(kind.method)) statuses.push(413, 415, 507);
  if (kind.idempotent) statuses.push(409);
  return statuses.sort((a, b) => a - b);
}

type Content = Record<string, { schema?: { contentMediaType?: string; 'x-other-media-types'?: string[] } }>;
/** Every answer's `request-id` header (decisions: Request log). */
const REQUEST_ID_HEADER = {
  description:
    "The request's id: `req_` and the developer's request number, or `req_anon_…` for a request of no developer. " +
    'GET /sandbox/requests/{id} shows it; an error body carries it as detail.request_id.',
  schema: { type: 'string' },
};

type Operation = {
  parameters?: ({ schema?: Record<string, unknown> } & Record<string, unknown>)[];
  responses?: Record<string, { description?: string; content?: Content; headers?: Record<string, unknown> }>;
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: { properties?: object; required?: unknown[] } }>;
  };
};

/**
 * Names, on every error response of an OpenAPI document, the codes of the error table that answer
 * with its status (instead of the generator's "Default Response"); a write that takes no body (its
 * schema an object with no properties, NoBody) or marked by `optionalBody` declares its body optional, as it is; an answer that
 * is a file (a schema with `contentMediaType`, see `fileResponse`) is declared under that media type.
 * @example transformObject: (input) => describeErrorResponses(jsonSchemaTransformObject(input))
 */
export function describeErrorResponses<D extends { paths?: object }>(document: D): D {
  for (const item of Object.values(document.paths ?? {}) as (Record<string, unknown> | undefined)[]) {
    for (const operation of Object.values(item ?? {}) as (Operation | undefined)[]) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        response.headers = { ...response.headers, 'request-id': REQUEST_ID_HEADER };
        const codes = ERROR_CODES.filter((code) => HTTP_STATUS[code] === Number(status));
        if (codes.length > 0) response.description = `Refused (${codes.join(', ')}), in the Error shape`;
        const {
          contentMediaType,
          [OTHER_MEDIA_TYPES]: others = [],
          ...file
        } = response.content?.['application/json']?.schema ?? {};
        if (contentMediaType)
          response.content = Object.fromEntries([contentMediaType, ...others].map((type) => [type, { schema: file }]));
      }
      // An extension's mark belongs on its parameter, where a client reads the parameter's name.
      for (const parameter of operation?.parameters ?? []) {
        if (!parameter.schema?.[EXTENSION_PARAMETER]) continue;
        delete parameter.schema[EXTENSION_PARAMETER];
        parameter[EXTENSION_PARAMETER] = true;
      }
      const body = operation?.requestBody?.content?.['application/json']?.schema as
        ({ properties?: object; required?: unknown[] } & Record<string, unknown>) | undefined;
      if (body?.[OPTIONAL_BODY]) {
        delete body[OPTIONAL_BODY];
        operation!.requestBody!.required = false;
      }
      if (body?.properties && Object.keys(body.properties).length === 0 && !body.required)
        operation!.requestBody!.required = false;
    }
  }
  return document;
}

/** The media types after the first of a file answer that may come in several. */
const OTHER_MEDIA_TYPES = 'x-other-media-types';

/**
 * The answer of a route that sends a file, not JSON: a binary string of `mediaType` in /openapi.json
 * (of each of `others` too, for a file that comes in several formats).
 * @example response: { 200: fileResponse('application/vnd.sqlite3', 'the whole sandbox as an SQLite file') }
 */
export const fileResponse = (mediaType: string, description: string, others: string[] = []) =>
  z.string().meta({
    format: 'binary',
    contentMediaType: mediaType,
    description,
    ...(others.length > 0 ? { [OTHER_MEDIA_TYPES]: others } : {}),
  });
