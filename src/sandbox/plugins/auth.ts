import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../engine/developers/keys.js';
import type { Db } from '../../engine/db/database.js';

declare module 'fastify' {
  interface FastifyRequest {
    developerId: string;
  }
  interface FastifyContextConfig {
    /** The route needs no x-api-key (health, OpenAPI, the webhook receiver). */
    public?: boolean;
  }
}

/** Every matched route but the public ones needs a live svc_test_ key (contract §2). */
export function installAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('developerId', '');
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.public) return;
    const header = request.headers['x-api-key'];
    request.developerId = await authenticate(db, Array.isArray(header) ? header[0] : header);
  });
}
