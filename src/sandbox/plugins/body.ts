import type { FastifyInstance } from 'fastify';
import { LedgerError } from '../../engine/errors.js';

export const BODY_LIMIT = 64 * 1024;

/** JSON bodies only (contract §2); an empty body is no body, for endpoints that take none. */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new LedgerError('INVALID_JSON', 'request body is not valid JSON'), undefined);
    }
  });
}
