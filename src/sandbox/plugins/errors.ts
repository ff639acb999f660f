import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { type ZodType, safeParse } from 'zod';
import type { $ZodIssue } from 'zod/v4/core';
import { HTTP_STATUS } from '../../api/errors.js';
import { IdempotencyHeaders, NoQuery } from '../../api/schemas/common.js';
import { type FieldProblem, LedgerError } from '../../engine/errors.js';

/** A request that broke a schema rule; carries every problem found, by field. */
class RequestValidationError extends Error {
  constructor(readonly fields: FieldProblem[]) {
    super(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
  }
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
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
    } else {
      out.push({ field: base || context, message: issue.message });
    }
  }
  // One problem per field: the first is the one to fix first.
  return out.filter((problem, index) => out.findIndex((p) => p.field === problem.field) === index);
}

type Shape = Record<string, ZodType>;
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: { type: string; shape?: Shape; checks?: unknown[]; catchall?: ZodType } } })._zod.def;

/** Whether every field of an object schema is a plain required string (no checks, no transform). */
function plainStrings(schema: ZodType): string[] | undefined {
  const def = defOf(schema);
  if (def.type !== 'object' || !def.shape || def.catchall) return undefined;
  const names = Object.keys(def.shape);
  return names.every((name) => {
    const field = defOf(def.shape![name]!);
    return field.type === 'string' && !field.checks?.length;
  })
    ? names
    : undefined;
}

/**
 * For the request parts most requests send in a shape their schema passes unchanged, a check of that
 * shape that skips zod (undefined: always zod). The value passes as it is, where zod would copy it
 * (for the headers, Fastify then merges that copy into every later read of request.headers).
 * Anything else goes to zod, which names the problems by field.
 */
function passesAsIs(schema: ZodType, httpPart: string | undefined): ((data: unknown) => boolean) | undefined {
  if (schema === NoQuery) return (data) => typeof data === 'object' && data !== null && Object.keys(data).length === 0;
  if (schema === IdempotencyHeaders) {
    return (data) => {
      const key = (data as Record<string, unknown>)['idempotency-key'];
      return key === undefined || (typeof key === 'string' && key.length >= 1 && key.length <= 255);
    };
  }
  const names = httpPart === 'params' ? plainStrings(schema) : undefined;
  if (!names) return undefined;
  return (data) => {
    if (typeof data !== 'object' || data === null) return false;
    const record = data as Record<string, unknown>;
    return Object.keys(record).length === names.length && names.every((name) => typeof record[name] === 'string');
  };
}

/** Validates a request part with its zod schema and reports problems by field name. */
export function validatorCompiler({ schema, httpPart }: { schema: ZodType; httpPart?: string }) {
  const asIs = passesAsIs(schema, httpPart);
  return (data: unknown) => {
    // No `value`: Fastify keeps the part it has.
    if (asIs?.(data)) return {};
    const result = safeParse(schema, data ?? (httpPart === 'body' ? undefined : {}));
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(fieldsOf(result.error.issues, httpPart ?? 'body', data)) as unknown as FastifySchemaValidationError[] };
  };
}

/** The documented error body (contract §2) of a refusal. */
export function errorBody(error: LedgerError) {
  return {
    success: false as const,
    detail: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
  };
}

export function sendError(reply: FastifyReply, error: LedgerError): FastifyReply {
  return reply.code(HTTP_STATUS[error.code]).send(errorBody(error));
}

/** Turns every failure into the contract's error body. Bugs become INTERNAL_ERROR without internals. */
export function installErrorHandling(app: FastifyInstance, logError: (error: unknown) => void): void {
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof LedgerError) return sendError(reply, error);
    if (error instanceof RequestValidationError) {
      const message = error.fields.length === 1 ? `${error.fields[0]!.field} ${error.fields[0]!.message}` : `${error.fields.length} fields are invalid: ${error.message}`;
      return sendError(reply, new LedgerError('VALIDATION_ERROR', message, error.fields));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, new LedgerError('PAYLOAD_TOO_LARGE', 'request body is larger than 64 KiB'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, new LedgerError('UNSUPPORTED_MEDIA_TYPE', 'request body must be JSON (content-type: application/json)'));
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
