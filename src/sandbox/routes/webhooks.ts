import { IdempotencyHeaders } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import {
  AttemptsResponse,
  EndpointResponse,
  PutEndpointBody,
  WebhookLogListQuery,
  WebhookLogPageResponse,
  WebhookLogParams,
  WebhookLogResponse,
} from '../../api/schemas/webhooks.js';
import type { Trx } from '../../engine/db/database.js';
import {
  assertRetryable,
  getEndpoint,
  getWebhookLog,
  listAttempts,
  listWebhookLogs,
  rotateSecret,
  setEndpointUrl,
  signingSecrets,
} from '../../engine/events/webhooks.service.js';
import { toAttempt, toPage, toWebhookLog } from '../serialize.js';
import { type App, type RouteDeps, inTransaction, answerInTransaction, commit, ok, sendAnswer } from './route.js';
import { listFilters } from './list-filters.js';

export function webhookRoutes(app: App, { sandbox, dispatcher, selfUrl }: RouteDeps): void {
  const { db } = sandbox;

  async function endpoint(trx: Trx, developerId: string) {
    const e = await getEndpoint(trx, developerId);
    const now = sandbox.envFor(developerId).clock.now();
    return {
      url: e.url ?? `${selfUrl() ?? '(this sandbox)'}/sandbox/receiver/${developerId}`,
      built_in: e.url === null,
      secret: e.secret,
      previous_secret_valid_until: signingSecrets(e, now).length > 1 ? e.previous_secret_until : null,
    };
  }

  app.get(
    '/v1/webhook-logs',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'List outbound webhook deliveries (filters status, event_type)',
        querystring: WebhookLogListQuery,
        response: { 200: WebhookLogPageResponse },
      },
    },
    async (request) =>
      ok(
        toPage(
          await inTransaction(sandbox, (trx) => listWebhookLogs(trx, request.developerId, listFilters(request.query))),
          toWebhookLog,
        ),
      ),
  );

  app.post(
    '/v1/webhook-logs/:log_id/retry',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Retry a FAILED or DEAD delivery now: one attempt before answering',
        headers: IdempotencyHeaders,
        params: WebhookLogParams,
        response: { 200: WebhookLogResponse, ...errors(409) },
      },
    },
    async (request, reply) => {
      const log = await getWebhookLog(db, request.developerId, request.params.log_id);
      assertRetryable(log);
      // The answer (and its Idempotency-Key) is kept in each write of the attempt: the begun one
      // first, so a retry of a request killed while its attempt was out replays, and sends nothing.
      let answer = '';
      await dispatcher.attemptNow(log, async (trx, written) => {
        answer = await answerInTransaction(request, reply, trx, toWebhookLog(written));
      });
      return sendAnswer(request, reply, answer);
    },
  );

  app.get(
    '/sandbox/webhook-logs/:log_id',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'One delivery log',
        params: WebhookLogParams,
        response: { 200: WebhookLogResponse },
      },
    },
    async (request) => ok(toWebhookLog(await getWebhookLog(db, request.developerId, request.params.log_id))),
  );

  app.get(
    '/sandbox/webhook-logs/:log_id/attempts',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Every attempt of one delivery',
        params: WebhookLogParams,
        response: { 200: AttemptsResponse },
      },
    },
    async (request) => {
      const log = await getWebhookLog(db, request.developerId, request.params.log_id);
      return ok({ items: (await listAttempts(db, log.seq)).map(toAttempt) });
    },
  );

  app.get(
    '/sandbox/webhook-endpoint',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Where deliveries go, and the signing secret',
        response: { 200: EndpointResponse },
      },
    },
    async (request) => ok(await endpoint(db, request.developerId)),
  );

  app.put(
    '/sandbox/webhook-endpoint',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Set the delivery URL (null: the built-in receiver)',
        body: PutEndpointBody,
        response: { 200: EndpointResponse },
      },
    },
    async (request) =>
      ok(
        await sandbox.write(async (trx) => {
          await setEndpointUrl(trx, request.developerId, request.body.url);
          return endpoint(trx, request.developerId);
        }, request.developerId),
      ),
  );

  app.post(
    '/sandbox/webhook-endpoint/rotate-secret',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'New signing secret; the old one also signs for 24 h of sandbox time',
        headers: IdempotencyHeaders,
        response: { 200: EndpointResponse },
      },
    },
    async (request, reply) =>
      commit(
        request,
        reply,
        sandbox,
        async (trx) => {
          await rotateSecret(trx, request.env, request.developerId);
          return endpoint(trx, request.developerId);
        },
        (e) => e,
      ),
  );
}
