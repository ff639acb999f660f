import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { AnalyserConfig } from '../../src/sandbox/analyser.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { findLog, type WebhookLogRow } from '../../src/engine/events/webhook-logs.repository.js';
import { openServer } from '../../src/sandbox/server.js';
import { typeCode } from '../../src/engine/events/stored.js';
import { createTestDatabase } from './postgres.js';

/** Where every test sandbox's manual clock starts, so it only moves when told. */
export const T0 = Date.parse('2026-11-21T09:30:00.000Z');

export interface TestSandbox {
  app: FastifyInstance;
  /** Set when the sandbox listens (`listen: true`). */
  baseUrl: string | undefined;
  sandbox: Sandbox;
  /** The owner's key, sent by `call` (assign a rotated key here). */
  key: string;
  developerId: string;
  /** A request with the developer's key (or `key` to override; `null` for none). */
  call(
    method: string,
    url: string,
    body?: unknown,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<Reply>;
  /** Audits the ledger (throwing on any problem), then shuts down. */
  close(): Promise<void>;
  /** Shuts down without the audit, as a stopped process would (a test that stops it half-way); `close` afterwards does nothing. */
  stop(): Promise<void>;
}

export interface Reply {
  status: number;
  body: any;
  headers: LightMyRequestResponse['headers'];
}

/**
 * A real sandbox on in-memory SQLite (or `dbPath`), a pinned clock and seeded ids.
 * @example const t = await createTestSandbox(); const r = await t.call('GET', '/sandbox/clock');
 */
export interface TestSandboxOptions {
  dbPath?: string;
  seed?: string;
  settlementDelaySeconds?: number;
  /** Where the manual clock starts (default T0). */
  clockStart?: number;
  /** Listen on a loopback port so webhooks reach the built-in receiver. */
  listen?: boolean;
  webhookTimeoutSeconds?: number;
  /** Deliveries in flight at once per developer (default 1: the manual clock delivers in order). */
  deliveryConcurrency?: number;
  /** A model-backed analyser (default: the rules). */
  analyser?: AnalyserConfig;
  /** Real time as the server reads it (default Date.now). */
  realNow?: () => number;
  /** The server's log (default: dropped). */
  log?: (line: string) => void;
  /** Rows the request log keeps per developer (default 1,000). */
  requestLogKeep?: number;
}

/** The backend this run's test sandboxes use: SQLite, or PostgreSQL in the postgres project (vitest.config.ts). */
export const TEST_BACKEND: 'sqlite' | 'postgres' =
  process.env.LEDGER_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/**
 * Where a test's sandbox keeps its data when the test names no file: ':memory:' on SQLite, a fresh
 * database on the shared PostgreSQL server in the postgres project; `drop` removes it after.
 */
export async function testDatabase(): Promise<{ location: string; drop: () => Promise<void> }> {
  if (TEST_BACKEND === 'sqlite') return { location: ':memory:', drop: async () => {} };
  const database = await createTestDatabase();
  return { location: database.url, drop: database.drop };
}

export async function createTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const database =
    options.dbPath === undefined ? await testDatabase() : { location: options.dbPath, drop: async () => {} };
  const server = await openServer({
    dbPath: database.location,
    seed: options.seed ?? 'test',
    clockStart: options.clockStart ?? T0,
    settlementDelaySeconds: options.settlementDelaySeconds,
    webhookTimeoutSeconds: options.webhookTimeoutSeconds,
    deliveryConcurrency: options.deliveryConcurrency,
    analyser: options.analyser,
    realNow: options.realNow,
    requestLogKeep: options.requestLogKeep,
    log: options.log ?? (process.env.LEDGER_TEST_LOG ? (line) => console.error(line) : () => {}),
  });
  const { app, sandbox, apiKey, developerId } = server;
  let baseUrl: string | undefined;
  if (options.listen) {
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    app.setSelfUrl(baseUrl);
  }
  const call: TestSandbox['call'] = async (method, url, body, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? self.key : opts.key;
    if (key !== null) headers['x-api-key'] = key;
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    let parsed: unknown = response.body;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      // not JSON: leave the text
    }
    return { status: response.statusCode, body: parsed, headers: response.headers };
  };
  let stopped = false;
  const self: TestSandbox = {
    app,
    sandbox,
    baseUrl,
    key: apiKey!,
    developerId,
    call,
    // Every scenario ends with the audit: closing a sandbox whose ledger is inconsistent fails the test.
    close: async () => {
      if (stopped) return;
      try {
        const { audit } = await import('../../src/engine/audit/audit.service.js');
        const report = await audit(sandbox.db);
        if (!report.ok) throw new Error(`audit failed after the test: ${JSON.stringify(report.problems, null, 2)}`);
      } finally {
        await self.stop();
      }
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        await server.close();
      } finally {
        await database.drop();
      }
    },
  };
  return self;
}

let walletCounter = 0;

/** A valid create-wallet body; `overrides` replace fields. */
export function walletBody(overrides: Record<string, unknown> = {}) {
  walletCounter += 1;
  return {
    customer_reference: `cust-${walletCounter}`,
    first_name: 'Ada',
    last_name: 'Obi',
    email: `ada${walletCounter}@example.com`,
    ...overrides,
  };
}

/** Creates a wallet and, if `fund` is given, credits it through an inbound transfer. */
export async function createWallet(t: TestSandbox, fund = 0, overrides: Record<string, unknown> = {}) {
  const created = await t.call('POST', '/v1/wallets', walletBody(overrides));
  if (created.status !== 201) throw new Error(`wallet create failed: ${JSON.stringify(created.body)}`);
  if (fund > 0) {
    const credited = await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: created.body.data.account_number,
      amount: fund,
    });
    if (credited.status !== 200) throw new Error(`credit failed: ${JSON.stringify(credited.body)}`);
  }
  return (await t.call('GET', `/v1/wallets/${created.body.data.id}`)).body.data;
}

/** A wallet as its owner reads it through the API (GET /v1/wallets/:id), or as the developer with `key` does. */
export async function getWallet(t: TestSandbox, id: string, key?: string) {
  return (await t.call('GET', `/v1/wallets/${id}`, undefined, key ? { key } : {})).body.data;
}

/** A wallet's balance in kobo, read through the API as `getWallet` reads it. */
export async function balanceOf(t: TestSandbox, id: string, key?: string): Promise<number> {
  return (await getWallet(t, id, key)).balance;
}

/**
 * The sandbox's webhook logs as rows in the order they were recorded (of one event type, if given),
 * each with the payload it sends, read as the dispatcher reads it (stored on its event, or built from
 * the event's transaction).
 */
export async function logsWithPayload(t: TestSandbox, eventType?: string): Promise<WebhookLogRow[]> {
  const ids = await t.sandbox.db
    .selectFrom('webhook_logs')
    .select('seq')
    .$if(eventType !== undefined, (qb) => qb.where('event_type_code', '=', typeCode(eventType!)))
    .orderBy('seq')
    .execute();
  return Promise.all(ids.map(async ({ seq }) => (await findLog(t.sandbox.db, seq))!));
}

/** Asserts the sandbox's audit is clean and returns the report. */
export async function expectCleanAudit(t: TestSandbox) {
  const report = await t.call('GET', '/sandbox/audit');
  if (report.status !== 200 || !report.body.data.ok) {
    throw new Error(`audit failed: ${JSON.stringify(report.body, null, 2)}`);
  }
  return report.body.data;
}

/**
 * A test sandbox for each test (`scope: 'each'`, the default) or for the whole file (`'all'`),
 * closed afterwards (which audits the whole database); with `auditAfter`, the caller's audit through
 * the API must be clean first. Returns a stand-in that always reaches the current sandbox, so a file
 * declares `const t = useSandbox()` once instead of repeating the set-up.
 */
export function useSandbox(
  options: TestSandboxOptions & { scope?: 'each' | 'all'; auditAfter?: boolean } = {},
): TestSandbox {
  const { scope = 'each', auditAfter = false, ...rest } = options;
  let current: TestSandbox | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    current = await createTestSandbox(rest);
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    if (!current) return;
    try {
      if (auditAfter) await expectCleanAudit(current);
    } finally {
      await current.close();
    }
  });
  return new Proxy({} as TestSandbox, {
    get: (_, property) => Reflect.get(current!, property),
    set: (_, property, value) => Reflect.set(current!, property, value),
  });
}
