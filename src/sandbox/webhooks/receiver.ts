import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ReceiverBehaviourBody, ReceiverBehaviourResponse, ReceiverEventsQuery, ReceiverEventsResponse } from '../../api/schemas/webhooks.js';
import { findEndpoint, signingSecrets } from '../../engine/events/webhooks.service.js';
import { LedgerError } from '../../engine/errors.js';
import { paginate } from '../../engine/paging.js';
import { prepareInsert } from '../../engine/db/prepared.js';
import type { ReceiverEventTable } from '../../engine/events/events.table.js';
import type { Selectable } from 'kysely';
import type { RouteDeps } from '../routes/route.js';
import { ok } from '../routes/route.js';
import { verifySignature } from './signing.js';

type ReceiverEventRow = Selectable<ReceiverEventTable>;

const insertReceived = prepareInsert('receiver_events', ['id', 'developer_id', 'webhook_id', 'event_type', 'headers', 'body', 'signature_valid', 'response_status', 'created_at']);

/** Headers a receiver must never keep: credentials that a caller may have sent along. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);

/** How far a delivery's webhook-timestamp may be from now, as the standardwebhooks package allows. */
const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/**
 * The built-in receiver, the default webhook endpoint. It accepts only deliveries signed (Standard
 * Webhooks) with that developer's current or previous secret, within five minutes of now, and
 * keeps each with its headers (no credentials), body and the signature check. Anything else gets
 * 401 and leaves no trace: it is not stored and does not use up an injected failure (contract §8).
 * Its own plugin, so the body stays the exact bytes sent.
 */
export async function receiverRoutes(app: FastifyInstance, { sandbox, realNow }: RouteDeps): Promise<void> {
  const { db } = sandbox;
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
        const body = typeof request.body === 'string' ? request.body : '';
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
        };
        // An unknown developer and a bad signature look the same from outside.
        const endpoint = await findEndpoint(db, developerId);
        const timestamp = Number(header('webhook-timestamp'));
        const fresh = /^\d{1,12}$/.test(header('webhook-timestamp')) && Math.abs(realNow() / 1000 - timestamp) <= TIMESTAMP_TOLERANCE_SECONDS;
        // Only a known developer's env is asked for: a stranger's id must not create a clock.
        const env = endpoint && sandbox.envFor(developerId);
        if (!endpoint || !env || !fresh || !verifySignature(signingSecrets(endpoint, env.clock.now()), header('webhook-id'), header('webhook-timestamp'), body, header('webhook-signature'))) {
          throw new LedgerError('UNAUTHORIZED', 'not a delivery of this sandbox: the Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature) is missing, stale or wrong');
        }
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
        const headers = Object.fromEntries(
          Object.entries(request.headers)
            .filter(([k]) => !SECRET_HEADERS.has(k))
            .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
        );
        const received: Omit<ReceiverEventRow, 'seq'> = {
          id: env.ids.uuid(),
          developer_id: developerId,
          webhook_id: header('webhook-id') || null,
          event_type: eventType,
          headers: JSON.stringify(headers),
          body,
          // Kept for the record's shape: only verified deliveries are stored.
          signature_valid: 1,
          response_status: status,
          created_at: env.clock.now().toISOString(),
        };
        await sandbox.write((trx) => insertReceived(trx, received));
        return reply.code(status).send(status < 300 ? { received: true, signature_valid: true } : { error: `failure injected by PUT /sandbox/receiver/behaviour (${status})` });
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
