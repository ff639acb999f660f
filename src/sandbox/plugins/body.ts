import type { FastifyInstance } from 'fastify';
import { invalidField, LedgerError } from '../../engine/errors.js';

export const BODY_LIMIT = 64 * 1024;

/** No request of the API nests deeper than a few levels; deeper JSON is refused before anything walks it. */
export const MAX_DEPTH = 32;

/** How deeply a parsed JSON value nests, stopping as soon as it passes `limit` (no recursion). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current as object)) stack.push([child, depth + 1]);
  }
  return false;
}

/** JSON bodies only (contract §2); an empty body is no body, for endpoints that take none. */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new LedgerError('INVALID_JSON', 'request body is not valid JSON'), undefined);
    }
    if (depthExceeds(parsed, MAX_DEPTH)) return done(invalidField('body', `nests deeper than ${MAX_DEPTH} levels`), undefined);
    done(null, parsed);
  });
}
