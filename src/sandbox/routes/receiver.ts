import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ReceiverBehaviourBody,
  ReceiverBehaviourResponse,
  ReceiverEventsQuery,
  ReceiverEventsResponse,
} from '../../api/schemas/webhooks.js';
import { findEventPayload, listReceived } from '../../engine/events/receiver-events.repository.js';
import { findEndpoint } from '../../engine/events/webhooks.service.js';
import { LedgerError } from '../../engine/errors.js';
import { ok, type RouteDeps } from './route.js';

/** The receiver's HTTP side: deliveries from anywhere, what it kept, and its failure injection. */
export async function receiverRoutes(app: FastifyInstance, { sandbox, receiver }: RouteDeps): Promise<void> {
  const { db } = sandbox;
  // Its own plugin, so the body stays the exact bytes sent.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    raw.post<{ Params: { developer_id: string } }>(
      '/sandbox/receiver/:developer_id',
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const developerId = request.params.developer_id;
        const body = typeof request.body === 'string' ? request.body : '';
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
        );
        // An unknown developer and a bad signature look the same from outside; only a known
        // developer's env is asked for, so a stranger's id creates no clock.
        const endpoint = await findEndpoint(db, developerId);
        if (!endpoint)
          throw new LedgerError(
            'UNAUTHORIZED',
            'not a delivery of this sandbox: the Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature) is missing, stale or wrong',
          );
        const webhookId = headers['webhook-id'];
        const answer = receiver.answer(developerId, endpoint, headers, body);
        if (webhookId && (await findEventPayload(db, developerId, webhookId)) === body) answer.record.body = null;
        await sandbox.write((trx) => receiver.keep(trx, developerId, [answer]), developerId);
        return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
      },
    );
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/sandbox/receiver/events',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'What the built-in receiver got, with signature checks',
        querystring: ReceiverEventsQuery,
        response: { 200: ReceiverEventsResponse },
      },
    },
    async (request) => {
      const page = await sandbox.db
        .transaction()
        .execute((trx) => listReceived(trx, request.developerId, request.query));
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

  const current = (developerId: string) => receiver.behaviours.get(developerId) ?? { status: 200, remaining: 0 };
  typed.get(
    '/sandbox/receiver/behaviour',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'The failure the built-in receiver will inject',
        response: { 200: ReceiverBehaviourResponse },
      },
    },
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
      receiver.behaviours.set(request.developerId, { status: request.body.status, remaining: request.body.count });
      return ok(current(request.developerId));
    },
  );
}
