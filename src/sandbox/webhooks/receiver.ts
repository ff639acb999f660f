import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ReceiverBehaviourBody, ReceiverBehaviourResponse, ReceiverEventsQuery, ReceiverEventsResponse } from '../../api/schemas/webhooks.js';
import { findEndpoint, signingSecrets } from '../../engine/events/webhooks.service.js';
import { notFound } from '../../engine/errors.js';
import { paginate } from '../../engine/paging.js';
import { prepareInsert } from '../../engine/db/prepared.js';
import type { ReceiverEventTable } from '../../engine/events/events.table.js';
import type { Selectable } from 'kysely';
import type { RouteDeps } from '../routes/route.js';
import { ok } from '../routes/route.js';
import { verifySignature } from './signing.js';

type ReceiverEventRow = Selectable<ReceiverEventTable>;

const insertReceived = prepareInsert('receiver_events', ['id', 'developer_id', 'webhook_id', 'event_type', 'headers', 'body', 'signature_valid', 'response_status', 'created_at']);

/**
 * The built-in receiver, the default webhook endpoint: it keeps every delivery with its headers,
 * body and whether the signature verified. Its own plugin, so the body stays the exact bytes sent.
 */
export async function receiverRoutes(app: FastifyInstance, { sandbox }: RouteDeps): Promise<void> {
  const { db, env } = sandbox;
  /** Failure injection per developer: answer `status` to the next `remaining` deliveries. In memory: a restart clears it. */
  const behaviours = new Map<string, { status: number; remaining: number }>();
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    raw.post<{ Params: { developer_id: string } }>(
      '/sandbox/receiver/:developer_id',
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const developerId = request.params.developer_id;
        const endpoint = await findEndpoint(db, developerId);
        if (!endpoint) throw notFound('receiver');
        const body = typeof request.body === 'string' ? request.body : '';
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
        };
        const secrets = signingSecrets(endpoint, env.clock.now());
        const valid = verifySignature(secrets, header('webhook-id'), header('webhook-timestamp'), body, header('webhook-signature'));
        const behaviour = behaviours.get(developerId);
        let status = 200;
        if (behaviour && behaviour.remaining > 0) {
          status = behaviour.status;
          behaviour.remaining -= 1;
        }
        let eventType: string | null = null;
        try {
          eventType = (JSON.parse(body) as { event_type?: string }).event_type ?? null;
        } catch {
          eventType = null;
        }
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
        const received: Omit<ReceiverEventRow, 'seq'> = {
          id: env.ids.uuid(),
          developer_id: developerId,
          webhook_id: header('webhook-id') || null,
          event_type: eventType,
          headers: JSON.stringify(headers),
          body,
          signature_valid: valid ? 1 : 0,
          response_status: status,
          created_at: env.clock.now().toISOString(),
        };
        await sandbox.write((trx) => insertReceived(trx, received));
        return reply.code(status).send(status < 300 ? { received: true, signature_valid: valid } : { error: `failure injected by PUT /sandbox/receiver/behaviour (${status})` });
      },
    );
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/sandbox/receiver/events',
    { schema: { tags: ['Sandbox'], summary: 'What the built-in receiver got, with signature checks', querystring: ReceiverEventsQuery, response: { 200: ReceiverEventsResponse } } },
    async (request) => {
      const page = await paginate<ReceiverEventRow>(db.selectFrom('receiver_events').where('developer_id', '=', request.developerId), request.query);
      return ok({
        ...page,
        items: page.items.map((e) => ({
          id: e.id,
          webhook_id: e.webhook_id,
          event_type: e.event_type,
          signature_valid: e.signature_valid === 1,
          response_status: e.response_status,
          headers: JSON.parse(e.headers) as Record<string, string>,
          body: e.body,
          created_at: e.created_at,
        })),
      });
    },
  );

  const current = (developerId: string) => behaviours.get(developerId) ?? { status: 200, remaining: 0 };
  typed.get(
    '/sandbox/receiver/behaviour',
    { schema: { tags: ['Sandbox'], summary: 'The failure the built-in receiver will inject', response: { 200: ReceiverBehaviourResponse } } },
    async (request) => ok(current(request.developerId)),
  );
  typed.put(
    '/sandbox/receiver/behaviour',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Make the built-in receiver answer `status` to the next `count` deliveries (count 0 resets)',
        body: ReceiverBehaviourBody,
        response: { 200: ReceiverBehaviourResponse },
      },
    },
    async (request) => {
      behaviours.set(request.developerId, { status: request.body.status, remaining: request.body.count });
      return ok(current(request.developerId));
    },
  );
}
