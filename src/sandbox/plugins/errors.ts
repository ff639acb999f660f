import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { type ZodType, safeParse } from 'zod';
import type { $ZodIssue } from 'zod/v4/core';
import { HTTP_STATUS } from '../../api/errors.js';
import { type FieldProblem, LedgerError } from '../../engine/errors.js';
import { asIsCheck } from './as-is.js';
import { requestIdOf } from './request-ids.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';

declare module 'fastify' {
  interface FastifyRequest {
    /** `detail.code` of the error this request was answered with (the request log's `code`). */
    errorCode?: string;
  }
}

/** A request that broke a schema rule; carries every problem found, by field. */
class RequestValidationError extends Error {
  constructor(readonly fields: FieldProblem[]) {
    super(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
  }
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path)
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function fieldsOf(issues: readonly $ZodIssue[], context: string, data: unknown): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: base ? `${base}.${key}` : key, message: 'unknown field' });
    } else if (issue.code === 'invalid_type' && valueAt(data, issue.path) === undefined) {
      out.push({ field: base || context, message: 'is required' });
    } else if (issue.code === 'invalid_type' && !base && issue.expected === 'object') {
      // The part itself (an empty body comes as null): zod's own text named a type it was not given.
      out.push({
        field: context,
        message: data === null ? 'is required: send a JSON object' : 'must be a JSON object',
      });
    } else {
      out.push({ field: base || context, message: issue.message });
    }
  }
  // One problem per field: the first is the one to fix first.
  return out.filter((problem, index) => out.findIndex((p) => p.field === problem.field) === index);
}

/**
 * A query that names a parameter more than once (`?limit=1&limit=2`) comes as an array of its values:
 * each such parameter is refused by name, which one was meant being anyone's guess. The other
 * problems of the query, read with each parameter's first value, are reported beside them (an
 * unknown parameter stays unknown, however often it is given).
 */
function repeatedParameters(schema: ZodType, data: unknown): FieldProblem[] | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const entries = Object.entries(data);
  const repeated = entries.filter(([, value]) => Array.isArray(value)).map(([name]) => name);
  if (repeated.length === 0) return undefined;
  const once = Object.fromEntries(entries.map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
  const result = safeParse(schema, once);
  const others = result.success ? [] : fieldsOf(result.error.issues, 'querystring', once);
  const unknown = new Set(others.filter((p) => p.message === 'unknown field').map((p) => p.field));
  return [
    ...repeated
      .filter((name) => !unknown.has(name))
      .map((name) => ({ field: name, message: 'was given more than once: give it once' })),
    ...others.filter((p) => unknown.has(p.field) || !repeated.includes(p.field)),
  ];
}

/** Validates a request part with its zod schema and reports problems by field name. */
export function validatorCompiler({ schema, httpPart }: { schema: ZodType; httpPart?: string }) {
  // Most requests send a part that passes unchanged: checked without zod's parse and copy (as-is.ts).
  const asIs = asIsCheck(schema);
  const refuse = (fields: FieldProblem[]) => ({
    error: new RequestValidationError(fields) as unknown as FastifySchemaValidationError[],
  });
  return (data: unknown) => {
    const repeated = httpPart === 'querystring' ? repeatedParameters(schema, data) : undefined;
    if (repeated) return refuse(repeated);
    // No `value`: Fastify keeps the part as it is (a copy of the headers would be merged into every later read of them).
    if (asIs?.(data)) return {};
    const result = safeParse(schema, data ?? (httpPart === 'body' ? undefined : {}));
    if (result.success) return { value: result.data };
    return refuse(fieldsOf(result.error.issues, httpPart ?? 'body', data));
  };
}

/**
 * Serializes an answer with its route's response schema: as fastify-type-provider-zod does (zod's
 * parse, then JSON), or straight to JSON when the answer already passes that schema unchanged
 * (as-is.ts): the same text without the parse.
 */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => {
  const serialize = zodSerializerCompiler(route);
  const { schema } = route as { schema: unknown };
  const asIs =
    typeof schema === 'object' && schema !== null && '_zod' in schema ? asIsCheck(schema as ZodType) : undefined;
  return asIs ? (data) => (asIs(data) ? JSON.stringify(data) : serialize(data)) : serialize;
};

/**
 * The documented error body (decisions: Requests and validation) of a refusal, naming the request it
 * answers (decisions: Request log).
 */
export function errorBody(error: LedgerError, requestId: string) {
  return {
    success: false as const,
    detail: {
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      request_id: requestId,
    },
  };
}

export function sendError(reply: FastifyReply, error: LedgerError): FastifyReply {
  // The request log's code is taken here, where the body is made, not read back from the JSON.
  reply.request.errorCode = error.code;
  const id = requestIdOf(reply.request);
  // Set here too: a refusal of the router (a bad path) is sent without the app's onSend hooks.
  return reply.code(HTTP_STATUS[error.code]).header('request-id', id).send(errorBody(error, id));
}

/** Turns every failure into the documented error body (decisions: Requests and validation). Bugs become INTERNAL_ERROR without internals. */
export function installErrorHandling(app: FastifyInstance, logError: (error: unknown) => void): void {
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof LedgerError) return sendError(reply, error);
    if (error instanceof RequestValidationError) {
      const message =
        error.fields.length === 1
          ? `${error.fields[0]!.field} ${error.fields[0]!.message}`
          : `${error.fields.length} fields are invalid: ${error.message}`;
      return sendError(reply, new LedgerError('VALIDATION_ERROR', message, error.fields));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, new LedgerError('PAYLOAD_TOO_LARGE', 'request body is larger than 64 KiB'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(
          reply,
          new LedgerError('UNSUPPORTED_MEDIA_TYPE', 'request body must be JSON (content-type: application/json)'),
        );
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, new LedgerError('INVALID_JSON', 'request body length does not match content-length'));
    }
    if (error.statusCode === 400 && error.validation === undefined && /JSON|body/i.test(error.message)) {
      return sendError(reply, new LedgerError('INVALID_JSON', 'request body is not valid JSON'));
    }
    logError(error);
    return sendError(reply, new LedgerError('INTERNAL_ERROR', 'internal error: the sandbox log has the details'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new LedgerError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
