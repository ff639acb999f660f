import { IdempotencyHeaders, Ok } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import {
  Resolution,
  ResolveSuspenseBody,
  SuspenseListQuery,
  SuspenseNoteBody,
  SuspensePageResponse,
  SuspenseParams,
  SuspenseResponse,
} from '../../api/schemas/suspense-requests.js';
import { flagSuspense, getSuspenseWithNotes, noteSuspense } from '../../engine/suspense/suspense-notes.service.js';
import { listSuspense, resolveSuspense } from '../../engine/suspense/suspense.service.js';
import { toPage, toSuspenseItem, toSuspenseWithNotes } from '../serialize.js';
import { type App, type RouteDeps, EXTENSION, inTransaction, commit, ok } from './route.js';
import { listFilters } from './list-filters.js';

const tags = ['Suspense'];

/** Marks an operation of /v1 that the interface document does not have: this service's own addition. */

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
    async (request) =>
      ok(
        toPage(
          await inTransaction(sandbox, (trx) => listSuspense(trx, request.developerId, listFilters(request.query))),
          toSuspenseItem,
        ),
      ),
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
      commit(
        request,
        reply,
        sandbox,
        (trx) => resolveSuspense(trx, request.env, request.developerId, request.params.suspense_id, request.body),
        (resolution) => resolution,
      ),
  );

  // Flag and note sit beside resolve, as the work on one item does; both answer the item with its notes.
  for (const [verb, summary, run] of [
    ['flag', 'Escalate a held payment with a note: PENDING becomes FLAGGED (extension)', flagSuspense],
    ['notes', 'Add a note to a held payment without resolving it (extension)', noteSuspense],
  ] as const) {
    app.post(
      `/v1/suspense/:suspense_id/${verb}`,
      {
        schema: {
          tags,
          summary,
          ...EXTENSION,
          headers: IdempotencyHeaders,
          params: SuspenseParams,
          body: SuspenseNoteBody,
          response: { 200: SuspenseResponse, ...errors(409) },
        },
      },
      async (request, reply) =>
        commit(
          request,
          reply,
          sandbox,
          (trx) => run(trx, request.env, request.developerId, request.params.suspense_id, request.body.note),
          toSuspenseWithNotes,
        ),
    );
  }

  app.get(
    '/sandbox/suspense/:suspense_id',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'One suspense item with its notes (for `ledger suspense show`)',
        params: SuspenseParams,
        response: { 200: SuspenseResponse },
      },
    },
    async (request) =>
      ok(toSuspenseWithNotes(await getSuspenseWithNotes(sandbox.db, request.developerId, request.params.suspense_id))),
  );
}
