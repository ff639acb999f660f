import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonSchemaTransform, jsonSchemaTransformObject, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeErrorResponses } from '../api/schemas/responses.js';
import { redactDatabase } from '../api/database-url.js';
import { API_VERSION } from '../engine/env.js';
import { VERSION } from '../version.js';
import { installAuth, installWriteRelease } from './plugins/auth.js';
import { BODY_LIMIT, installJsonBody } from './plugins/body.js';
import { installErrorHandling, serializerCompiler, validatorCompiler } from './plugins/errors.js';
import { httpLayerOptions, installRequestChecks, installRouteDefaults, refuseConnect } from './plugins/http-layer.js';
import { installIdempotency } from './plugins/idempotency.js';
import { installRequestIds } from './plugins/request-ids.js';
import { installRequestLog } from './plugins/request-log.js';
import { requestLogRoutes } from './routes/requests.js';
import { agentRoutes } from './routes/agents.js';
import { bankRoutes } from './routes/banks.js';
import type { App, RouteDeps } from './routes/route.js';
import { sandboxAnalyseRoutes } from './routes/sandbox-analyse.js';
import { sandboxControlRoutes } from './routes/sandbox-control.js';
import { sandboxWalletRoutes } from './routes/sandbox-wallets.js';
import { sandboxSearchRoutes } from './routes/sandbox-search.js';
import { snapshotRoutes } from './routes/snapshots.js';
import { suspenseRoutes } from './routes/suspense.js';
import { webhookRoutes } from './routes/webhooks.js';
import { webhookStreamRoutes } from './routes/webhook-stream.js';
import { createDispatcher } from './webhooks/dispatcher.js';
import { receiverRoutes } from './routes/receiver.js';
import { reportRoutes } from './routes/report.js';
import { createReceiver } from './webhooks/receiver.js';
import { transactionRoutes } from './routes/transactions.js';
import { walletRoutes } from './routes/wallets.js';
import type { Sandbox } from './sandbox.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { createSessions } from './dashboard/sessions.js';
import { batchLines } from './line-batch.js';
import { withoutSecrets } from './redact.js';
import { resumeResets } from './reset.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createSnapshots, type Snapshots } from './snapshots.js';
import { webhookLease } from './start-options.js';

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
    /** Waits, while the developer is held, until none of its work still runs (see RouteDeps). */
    quiesce: RouteDeps['quiesce'];
    snapshots: Snapshots;
    /** Tells the dispatcher where the built-in receiver listens. */
    setSelfUrl(url: string): void;
  }
}

export interface BuildAppOptions {
  sandbox: Sandbox;
  /**
   * One line per request (the foreground log of `ledger sandbox start`), given in batches: each call
   * may carry several lines joined by newlines, with no newline at the end.
   */
  logRequest?: (line: string) => void;
  /** Where unexpected errors are reported; they never reach the response body. */
  logError?: (error: unknown) => void;
  /** Seconds before a webhook attempt is abandoned (default 15). */
  webhookTimeoutSeconds?: number;
  /**
   * Where other servers share the database: seconds of the developer's clock for which a begun
   * attempt holds its delivery (default: the timeout + 15). Ignored where this server alone sends.
   */
  webhookLeaseSeconds?: number | undefined;
  /** Real time for webhook-timestamp headers (default Date.now). */
  realNow?: () => number;
  /** Deliveries stopped (or started again) because their attempts could not be recorded. */
  onDeliveriesPaused?: (paused: boolean, reason: string) => void;
  /** Attempts in flight at once per developer (default: 1 with a manual clock, else 8). */
  deliveryConcurrency?: number | undefined;
  /** Where named snapshots live (`sandbox start`: .ledger/snapshots). Default: a temporary directory removed when the app closes. */
  snapshotDir?: string | undefined;
  /** Where warnings go (a restore that skipped its snapshot's audit); default stderr. */
  logWarning?: ((line: string) => void) | undefined;
  /** Serve HTTPS with this certificate and key (PEM) instead of HTTP. */
  tls?: { cert: string; key: string } | undefined;
  /** Rows the request log keeps per developer, oldest dropped first (default REQUEST_LOG_KEEP, 1,000). */
  requestLogKeep?: number | undefined;
  /** How /sandbox/health names this server and its database (default: a fresh id, and the database's path). */
  identity?: Partial<RouteDeps['identity']> | undefined;
}

/**
 * The zod compilers as Fastify's compiler factories. Without factories of its own, Fastify loads Ajv
 * and fast-json-stringify (10 to 20 ms of every start) to make default compilers that the zod ones
 * replace at once. Fastify's types name Ajv's and fast-json-stringify's factories; any is taken.
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/** Route groups, each a function of the app and the sandbox. */
const ROUTES: ((app: App, deps: RouteDeps) => void)[] = [
  walletRoutes,
  transactionRoutes,
  agentRoutes,
  suspenseRoutes,
  webhookRoutes,
  webhookStreamRoutes,
  bankRoutes,
  sandboxWalletRoutes,
  sandboxControlRoutes,
  sandboxAnalyseRoutes,
  sandboxSearchRoutes,
  snapshotRoutes,
  reportRoutes,
  requestLogRoutes,
];

/**
 * The sandbox HTTP server as a value: every route registered, nothing listening.
 * Tests call `app.inject()`; `ledger sandbox start` calls `listen`.
 * @example const app = await buildApp({ sandbox }); const res = await app.inject({ url: '/sandbox/health' });
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { sandbox } = options;
  const serverOptions = {
    bodyLimit: BODY_LIMIT,
    logger: false,
    ...httpLayerOptions,
    schemaController: { compilersFactory: ZOD_COMPILERS },
  };
  // Fastify hands `https` alone to the server it makes, so the HTTP layer's limits go in with it.
  // The app is the same either way: its type is the HTTP one the routes are written against.
  const app = (
    options.tls
      ? (Fastify({
          ...serverOptions,
          https: { ...httpLayerOptions.http, cert: options.tls.cert, key: options.tls.key },
        }) as unknown as FastifyInstance)
      : Fastify(serverOptions)
  ).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // First: the URL checks run before any other hook, and every route gets its defaults as it is added.
  installRequestChecks(app);
  installRouteDefaults(app);
  refuseConnect(app.server);
  installJsonBody(app);
  installErrorHandling(app, options.logError ?? ((error) => console.error(error)));
  const realNow = options.realNow ?? Date.now;
  const sessions = createSessions(realNow);
  installAuth(app, sandbox, sessions);
  installRequestIds(app, sandbox);
  installRequestLog(app, sandbox, options.requestLogKeep);
  installIdempotency(app, sandbox);
  installWriteRelease(app);

  if (options.logRequest) {
    const logRequest = options.logRequest;
    // One write per turn of the event loop, not per request (line-batch.ts); what waits is written at close.
    const log = batchLines((text) => logRequest(text.slice(0, -1)));
    app.addHook('onClose', async () => log.close());
    const line = (request: { method: string; url: string }, outcome: string) =>
      log.line(`${new Date().toISOString()} ${request.method} ${withoutSecrets(request.url)} ${outcome}`);
    app.addHook('onResponse', (request, reply, next) => {
      // A stream (webhooks tail) is noted once when it opens; its heartbeats and its end are not requests.
      if (!(request.routeOptions.config.stream && reply.statusCode === 200))
        line(request, `${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
      next();
    });
    app.addHook('preHandler', (request, _reply, next) => {
      if (request.routeOptions.config.stream) line(request, '200 stream opened');
      next();
    });
  }

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Wallet Ledger Service (ledger sandbox)',
        version: API_VERSION,
        description: 'The /v1 interface and the /sandbox controls of the local sandbox. Amounts are integer kobo.',
      },
      components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ ApiKey: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => describeErrorResponses(jsonSchemaTransformObject(input)),
  });

  const receiver = createReceiver(sandbox, realNow);
  const timeoutSeconds = options.webhookTimeoutSeconds ?? 15;
  const dispatcher = createDispatcher(sandbox, {
    timeoutSeconds,
    leaseSeconds: sandbox.storage.shared ? webhookLease(options.webhookLeaseSeconds, timeoutSeconds) : undefined,
    // With a manual clock deliveries go out one at a time, in order, so the receiver sees them (and
    // its injected failures hit them) in the same order in every run
    // (decisions: Seeds and reproducibility).
    concurrency: options.deliveryConcurrency ?? (sandbox.clockMode === 'manual' ? 1 : 8),
    version: VERSION,
    realNow,
    receiver,
    onPause: options.onDeliveriesPaused,
  });
  const scheduler = createScheduler(sandbox, dispatcher, {
    onError: options.logError ?? ((error) => console.error(error)),
  });
  let selfUrl: string | undefined;
  const snapshotDir = options.snapshotDir ?? mkdtempSync(join(tmpdir(), 'ledger-snapshots-'));
  if (options.snapshotDir === undefined)
    app.addHook('onClose', async () => rmSync(snapshotDir, { recursive: true, force: true }));
  const snapshots = createSnapshots(sandbox, scheduler, snapshotDir, options.logWarning);
  app.decorate('scheduler', scheduler);
  app.decorate('snapshots', snapshots);
  app.decorate('setSelfUrl', (url: string) => {
    selfUrl = url;
    dispatcher.setSelfUrl(url);
  });
  // Before the server stops taking requests: attempts in flight finish, and are recorded, first.
  app.addHook('preClose', () => scheduler.stop());
  // Everything of one developer's that runs: its write requests, settlements and deliveries. Its
  // attempts in flight are cancelled, not waited for (an endpoint that never answers would hold the
  // reset for the webhook timeout), first: a manual retry among its writes may be waiting on one.
  const quiesce: RouteDeps['quiesce'] = async (developerId, except) => {
    await dispatcher.cancel(developerId);
    await app.developerWrites.settled(developerId, except);
    await scheduler.idle();
    await dispatcher.cancel(developerId);
  };
  app.decorate('quiesce', quiesce);
  // A snapshot taken while a reset ran holds it half done: the restored sandbox finishes it.
  sandbox.onRestore(() => resumeResets(sandbox, quiesce, options.logError ?? ((error) => console.error(error))));
  const identity = {
    serverId: options.identity?.serverId ?? randomUUID(),
    database: options.identity?.database ?? redactDatabase(sandbox.dbPath),
  };
  const deps: RouteDeps = {
    sandbox,
    scheduler,
    dispatcher,
    snapshots,
    receiver,
    quiesce,
    selfUrl: () => selfUrl,
    version: VERSION,
    realNow,
    identity,
  };
  for (const register of ROUTES) register(app, deps);
  await receiverRoutes(app, deps);
  await app.register(dashboardRoutes(sessions));

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await app.ready();
  return app;
}
