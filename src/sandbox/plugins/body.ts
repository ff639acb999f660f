import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { invalidField, LedgerError } from '../../engine/errors.js';
import { KEPT_BODY_CHARS } from '../redact.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The text of a body that was refused before it was parsed (not JSON, duplicate fields): for the request log. */
    unparsedBody?: string;
  }
}

export const BODY_LIMIT = 64 * 1024;

/** No request body of the API nests past a few levels; a deeper one is refused before anything walks it. */
export const MAX_BODY_DEPTH = 32;

interface Frame {
  /** The names seen so far in an object (undefined: an array). */
  names: Set<string> | undefined;
  /** In an object, whether the next string is a name (after `{` or `,`). */
  expectName: boolean;
  /** Where it is in the body, by the names of the objects that hold it (`beneficiary.account_number`). */
  path: string;
}

/**
 * What a body's text breaks that `JSON.parse` lets through, found in one pass without recursion:
 * objects and arrays nested deeper than `limit`, or a name given twice in one object, which
 * `JSON.parse` settles by keeping the last (`{"amount":100,"amount":200}` would move ₦2, where
 * whoever wrote or checked the body may have read ₦1). Only for text that `JSON.parse` accepted.
 * @example structureProblem('{"amount":100,"amount":200}', 32) // { field: 'amount', message: 'appears more than once' }
 */
export function structureProblem(text: string, limit: number): { field: string; message: string } | undefined {
  const stack: Frame[] = [];
  let name = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      let end = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(end); d !== 0x22; d = text.charCodeAt(end)) {
        if (d === 0x5c) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      const top = stack[stack.length - 1];
      if (top?.names && top.expectName) {
        name = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (top.names.has(name))
          return { field: top.path ? `${top.path}.${name}` : name, message: 'appears more than once' };
        top.names.add(name);
        top.expectName = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (stack.length >= limit)
        return { field: 'body', message: `nests objects or arrays deeper than ${limit} levels` };
      const parent = stack[stack.length - 1];
      const path = !parent ? '' : !parent.names ? parent.path : parent.path ? `${parent.path}.${name}` : name;
      stack.push({ names: c === 0x7b ? new Set() : undefined, expectName: c === 0x7b, path });
    } else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.names) top.expectName = true;
    }
  }
  return undefined;
}

/**
 * JSON bodies only (decisions: Requests and validation); an empty body is no body, for endpoints
 * that take none. JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not (a Latin-1 `é`) are
 * refused as INVALID_JSON, where decoding would have stored U+FFFD in their place, a name or
 * narration changed without a word.
 */
export function installJsonBody(app: FastifyInstance): void {
  // A compressed body (Content-Encoding gzip, br, ...) is refused, not read as bytes that are not
  // JSON: bodies are at most 64 KiB, and an inflated one could be a zip bomb. RFC 9110 §15.5.16: 415,
  // with the codings that are accepted in Accept-Encoding.
  app.addHook('preParsing', (request, reply, payload, done) => {
    const encoding = request.headers['content-encoding'];
    const hasBody =
      request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (encoding === undefined || !hasBody || /^\s*identity\s*$/i.test(encoding)) return done(null, payload);
    reply.header('accept-encoding', 'identity');
    done(
      new LedgerError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Encoding ${encoding.slice(0, 40)} is not accepted: send the JSON body uncompressed (at most 64 KiB)`,
      ),
      payload,
    );
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes))
      return done(new LedgerError('INVALID_JSON', 'request body is not valid JSON: it is not UTF-8 text'), undefined);
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // The request log keeps what was sent, as text (redacted there).
      request.unparsedBody = text.slice(0, 2 * KEPT_BODY_CHARS);
      return done(new LedgerError('INVALID_JSON', 'request body is not valid JSON'), undefined);
    }
    const problem = structureProblem(text, MAX_BODY_DEPTH);
    if (problem) {
      request.unparsedBody = text.slice(0, 2 * KEPT_BODY_CHARS);
      return done(invalidField(problem.field, problem.message), undefined);
    }
    done(null, parsed);
  });
}
