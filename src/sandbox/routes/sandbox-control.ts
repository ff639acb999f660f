import { IdempotencyHeaders, Ok } from '../../api/schemas/common.js';
import {
  AuditReport,
  ClockAdvanceBody,
  ClockState,
  DeveloperBody,
  Health,
  KeyInfo,
  NewDeveloper,
  ResetResult,
  RotatedKey,
} from '../../api/schemas/sandbox.js';
import { auditOffThread } from '../../engine/audit/audit.service.js';
import { createDeveloper, findDeveloper } from '../../engine/developers/developers.service.js';
import { currentKeyInfo, issueKey } from '../../engine/developers/keys.js';
import type { Clock } from '../../engine/clock.js';
import { API_VERSION } from '../../engine/env.js';
import { storageFailure } from '../../engine/db/storage-errors.js';
import { notFound } from '../../engine/errors.js';
import { isSeeded } from '../../engine/ids.js';
import { SEEDED_HEADER } from '../../api/headers.js';
import { resetInChunks } from '../reset.js';
import { type App, type RouteDeps, answerInTransaction, commit, ok, sendAnswer } from './route.js';

/**
 * The most instants a clock advance stops at on its way (each runs what fell due there); what falls
 * due after the last runs at the new time.
 */
const MAX_WALK_STEPS = 10_000;
const tags = ['Sandbox'];

/** Health, clock, keys, developers, audit and reset: the controls only the sandbox has (decisions: Tenancy, clocks and reset). */
export function sandboxControlRoutes(
  app: App,
  { sandbox, scheduler, dispatcher, version, quiesce, identity }: RouteDeps,
): void {
  /** A clock as the API shows it (ClockState), at `offsetMs` from real time (or from --clock-start). */
  const clockState = (clock: Clock, offsetMs: number) => ({
    now: clock.now().toISOString(),
    offset_seconds: offsetMs / 1000,
  });

  app.get(
    '/sandbox/health',
    {
      config: { public: true },
      schema: { tags, summary: 'Liveness, no key needed', security: [], response: { 200: Health } },
    },
    // Who answers, on what, and the shared work it holds (the dispatcher's leases, where servers share the database).
    async () => {
      const { leaseSeconds, leased } = dispatcher.leases();
      const leases =
        leaseSeconds === undefined ? {} : { lease_seconds: leaseSeconds, deliveries_leased_by_this_server: leased };
      return ok({
        status: 'ok' as const,
        version,
        api_version: API_VERSION,
        backend: sandbox.storage.backend,
        server_id: identity.serverId,
        database: identity.database,
        ...leases,
      });
    },
  );

  app.get(
    '/sandbox/clock',
    {
      schema: {
        tags,
        summary: "The caller's virtual clock: real time plus its offset",
        response: { 200: Ok(ClockState) },
      },
    },
    async (request) => {
      const clock = sandbox.clockFor(request.developerId);
      return ok(clockState(clock, clock.offsetMs));
    },
  );

  app.post(
    '/sandbox/clock/advance',
    {
      schema: {
        tags,
        summary: "Move the caller's virtual clock forward; the caller's work that became due runs before the answer",
        headers: IdempotencyHeaders,
        body: ClockAdvanceBody,
        response: { 200: Ok(ClockState) },
      },
    },
    async (request, reply) => {
      // The answer (and its Idempotency-Key) commits with the move: a retry after a crash between
      // the two would have moved the clock again.
      let answer = '';
      const { developerId } = request;
      // Once the move has committed, its answer is the one stored with it: work that cannot be
      // recorded (a full disk) stops the walk and stays due for the next pass, instead of turning the
      // answer into an error that says nothing was written (a script retrying it would move twice).
      const runDue = () =>
        scheduler.runDue(developerId).then(
          () => true,
          (error: unknown) => {
            if (storageFailure(error)) return false;
            throw error;
          },
        );
      await sandbox.advanceClock(
        developerId,
        request.body.seconds,
        async (trx, advanced, offsetMs) => {
          answer = await answerInTransaction(request, reply, trx, clockState(advanced, offsetMs), {
            ...request.env,
            clock: advanced,
          });
        },
        // Through each instant at which something falls due, in order, as if the time had passed:
        // a retry made there schedules the next from there, so `advance 2d` against a failing
        // endpoint makes every attempt of the schedule, each at its time.
        async (to) => {
          const clock = sandbox.clockFor(developerId);
          for (let step = 0; ; step++) {
            // The instant reached last runs too: only then may the walk stop at its bound.
            if (!(await runDue()) || step === MAX_WALK_STEPS) return;
            // What falls due later: what is due already and did not run (deliveries paused, the built-in receiver not listening yet) waits as before.
            const next = await scheduler.nextDueAfter(developerId, clock.now().getTime());
            if (next === undefined || !to(next)) return;
          }
        },
      );
      await runDue();
      return sendAnswer(request, reply, answer);
    },
  );

  app.get(
    '/sandbox/keys',
    {
      schema: { tags, summary: 'The calling developer and a hint of its current key', response: { 200: Ok(KeyInfo) } },
    },
    async (request) => {
      const [developer, key] = await Promise.all([
        findDeveloper(sandbox.db, request.developerId),
        currentKeyInfo(sandbox.db, request.developerId),
      ]);
      if (!developer || !key) throw notFound('developer');
      return ok({
        developer_id: developer.id,
        business_name: developer.business_name,
        key_hint: key.key_hint,
        key_created_at: key.created_at,
      });
    },
  );

  app.post(
    '/sandbox/keys/rotate',
    {
      schema: {
        tags,
        summary:
          'Issue a new key for the calling developer; the old one fails at once (no Idempotency-Key: its answer holds a key)',
        response: { 200: Ok(RotatedKey) },
      },
      config: { idempotency: false },
    },
    async (request, reply) =>
      commit(
        request,
        reply,
        sandbox,
        (trx) => issueKey(trx, request.env, request.developerId),
        (apiKey) => ({
          developer_id: request.developerId,
          api_key: apiKey,
          created_at: request.env.clock.now().toISOString(),
        }),
      ),
  );

  app.post(
    '/sandbox/developers',
    {
      schema: {
        tags,
        summary:
          'Create another developer account with its own key (isolation tests; no Idempotency-Key: ' +
          'its answer holds a key). On a seeded sandbox the answer has the header `sandbox-seeded: true`: ' +
          'anyone who knows the seed can derive every id and account number',
        body: DeveloperBody,
        response: { 201: Ok(NewDeveloper) },
      },
      config: { idempotency: false },
    },
    async (request, reply) => {
      // What the new developer's owner is told before sharing the sandbox (`developers create` warns); the body keeps its shape.
      if (isSeeded(sandbox.ids)) reply.header(SEEDED_HEADER, 'true');
      return commit(
        request,
        reply,
        sandbox,
        (trx) => createDeveloper(trx, request.env, request.body.business_name),
        (created) => created,
        201,
      );
    },
  );

  app.get(
    '/sandbox/audit',
    {
      schema: {
        tags,
        summary: "Check every money invariant of the caller's books, and that the sandbox's books balance as a whole",
        response: { 200: Ok(AuditReport) },
      },
    },
    async (request) => ok(await auditOffThread(sandbox.db, request.developerId)),
  );

  app.post(
    '/sandbox/reset',
    {
      schema: {
        tags,
        summary:
          "Empty the caller's wallets, money, suspense items, agents, events and deliveries; its account, keys and clock stay",
        headers: IdempotencyHeaders,
        response: { 200: Ok(ResetResult) },
      },
    },
    async (request, reply) => {
      const answer = await resetInChunks(
        sandbox,
        (developerId) => quiesce(developerId, request),
        request.developerId,
        (trx, removed) => answerInTransaction(request, reply, trx, { reset: true as const, removed }),
      );
      return sendAnswer(request, reply, answer);
    },
  );
}
