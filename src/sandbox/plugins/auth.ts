import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../engine/developers/keys.js';
import type { EngineEnv } from '../../engine/env.js';
import type { Sandbox } from '../sandbox.js';

declare module 'fastify' {
  interface FastifyRequest {
    developerId: string;
    /** The calling developer's engine environment: its own virtual clock (contract §8). */
    env: EngineEnv;
  }
  interface FastifyContextConfig {
    /** The route needs no x-api-key (health, OpenAPI, the webhook receiver). */
    public?: boolean;
  }
}

/** Every matched route but the public ones needs a live svc_test_ key (contract §2). */
export function installAuth(app: FastifyInstance, sandbox: Pick<Sandbox, 'db' | 'envFor'>): void {
  app.decorateRequest('developerId', '');
  app.decorateRequest('env', null as unknown as EngineEnv);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.public) return;
    const header = request.headers['x-api-key'];
    request.developerId = await authenticate(sandbox.db, Array.isArray(header) ? header[0] : header);
    request.env = sandbox.envFor(request.developerId);
  });
}
