import { IdempotencyHeaders, Ok } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import { Resolution, ResolveSuspenseBody, SuspenseListQuery, SuspensePageResponse, SuspenseParams, SuspenseResponse } from '../../api/schemas/suspense-requests.js';
import { getSuspenseItem, listSuspense, resolveSuspense } from '../../engine/suspense/suspense.service.js';
import { toPage, toSuspenseItem } from '../serialize.js';
import { type App, type RouteDeps, inTransaction, commit, ok } from './route.js';
import { listFilters } from './list-filters.js';

const tags = ['Suspense'];

export function suspenseRoutes(app: App, { sandbox }: RouteDeps): void {
  app.get(
    '/v1/suspense',
    {
      schema: {
        tags,
        summary: 'List held payments awaiting resolution (filters status, reason)',
        querystring: SuspenseListQuery,
        response: { 200: SuspensePageResponse },
      },
    },
    async (request) => ok(toPage(await inTransaction(sandbox, (trx) => listSuspense(trx, request.developerId, listFilters(request.query))), toSuspenseItem)),
  );

  app.post(
    '/v1/suspense/:suspense_id/resolve',
    {
      schema: {
        tags,
        summary: 'Resolve a held payment: CREDIT_WALLET, DISMISS or REFUND',
        headers: IdempotencyHeaders,
        params: SuspenseParams,
        body: ResolveSuspenseBody,
        response: { 200: Ok(Resolution), ...errors(409, 422) },
      },
    },
    async (request, reply) =>
      commit(request, reply, sandbox, (trx) => resolveSuspense(trx, request.env, request.developerId, request.params.suspense_id, request.body), (resolution) => resolution),
  );

  app.get(
    '/sandbox/suspense/:suspense_id',
    { schema: { tags: ['Sandbox'], summary: 'One suspense item (for `ledger suspense show`)', params: SuspenseParams, response: { 200: SuspenseResponse } } },
    async (request) => ok(toSuspenseItem(await getSuspenseItem(sandbox.db, request.developerId, request.params.suspense_id))),
  );
}
