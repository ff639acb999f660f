import type { FastifyInstance } from 'fastify';
import { invalidField, LedgerError } from '../../engine/errors.js';

export const BODY_LIMIT = 64 * 1024;

/** No request body of the API nests past a few levels; a deeper one is refused before anything walks it. */
export const MAX_BODY_DEPTH = 32;

/** Whether objects and arrays nest deeper than `limit`, measured without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
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
    if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) return done(invalidField('body', `nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels`), undefined);
    done(null, parsed);
  });
}
