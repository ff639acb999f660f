import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type RunningSandbox, SandboxError, startSandbox } from '../../src/index.js';
import { type OpenServer, openServer } from '../../src/sandbox/server.js';
import { createTestDatabase, freeLoopbackPort } from '../helpers/postgres.js';

/**
 * Servers sharing one PostgreSQL database (decisions: Storage): the second joins the first's owner and
 * makes no key of its own; health says which backend, which server and which database.
 */

const PASSWORD = 'Pg-join-s3cret';

/** A fresh database's URL with a password in it (the test server trusts loopback, so any password connects). */
async function databaseWithPassword(): Promise<{ url: string; shown: string }> {
  const db = await createTestDatabase();
  onTestFinished(db.drop);
  const url = new URL(db.url);
  url.password = PASSWORD;
  const shown = new URL(db.url);
  shown.password = '***';
  return { url: url.href, shown: shown.href.replace('%2A%2A%2A', '***') };
}

async function open(url: string, options: Partial<Parameters<typeof openServer>[0]> = {}): Promise<OpenServer> {
  const server = await openServer({ dbPath: url, log: () => {}, ...options });
  onTestFinished(() => server.close());
  return server;
}

const keyOwner = async (server: OpenServer, key: string) =>
  (await server.app.inject({ method: 'GET', url: '/sandbox/keys', headers: { 'x-api-key': key } })).json();

describe('a second server on a PostgreSQL database', () => {
  it("a second start on the database joins the owner without a key, and the first server's key keeps working", async () => {
    const { url } = await databaseWithPassword();
    const first = await open(url);
    expect([first.keyIssued, first.apiKey]).toEqual([true, expect.stringMatching(/^svc_test_/)]);
    const second = await open(url);
    expect([second.keyIssued, second.apiKey, second.developerId]).toEqual([false, undefined, first.developerId]);
    // The first key works on both servers: nothing was revoked.
    for (const server of [first, second])
      expect(await keyOwner(server, first.apiKey!)).toMatchObject({
        success: true,
        data: { developer_id: first.developerId },
      });
    // The key it remembers, or the one it is given, is the owner's: kept, not replaced.
    const third = await open(url, { knownKey: first.apiKey });
    expect([third.keyIssued, third.apiKey]).toEqual([false, first.apiKey]);
  });

  it('two servers starting at once on a fresh database make one owner between them', async () => {
    const { url } = await databaseWithPassword();
    const [a, b] = await Promise.all([open(url), open(url)]);
    expect(a.developerId).toBe(b.developerId);
    expect([a.apiKey, b.apiKey].filter(Boolean)).toHaveLength(1);
  });

  it('takes its pool size and statement timeout', async () => {
    const { url } = await databaseWithPassword();
    const server = await open(url, { postgres: { poolSize: 3, statementTimeoutMs: 1500 } });
    const { rows } = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(server.sandbox.db);
    expect(rows[0]!.statement_timeout).toBe('1500ms');
  });

  it('names its backend, its own id and its database without the password on /sandbox/health', async () => {
    const { url, shown } = await databaseWithPassword();
    const [a, b] = [await open(url), await open(url)];
    const health = async (server: OpenServer) =>
      (await server.app.inject({ method: 'GET', url: '/sandbox/health' })).json().data;
    expect(await health(a)).toEqual({
      status: 'ok',
      version: expect.any(String),
      api_version: expect.any(String),
      backend: 'postgres',
      server_id: a.serverId,
      database: shown,
      lease_seconds: 30,
      deliveries_leased_by_this_server: 0,
    });
    expect((await health(b)).server_id).not.toBe(a.serverId);
    expect(JSON.stringify(await health(b))).not.toContain(PASSWORD);
  });
});

describe('startSandbox({ database })', () => {
  const started = async (options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> => {
    const sandbox = await startSandbox({ log: () => {}, ...options });
    onTestFinished(() => sandbox.stop());
    return sandbox;
  };

  it("runs on PostgreSQL, and joins a database that has its owner only with that owner's key", async () => {
    const { url } = await databaseWithPassword();
    const first = await started({ database: url });
    const health = await fetch(`${first.baseUrl}/sandbox/health`).then(
      (r) => r.json() as Promise<{ data: { backend: string } }>,
    );
    expect(health.data.backend).toBe('postgres');
    const refused = await startSandbox({ database: url, log: () => {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining("give the owner's key as `apiKey`"),
    });
    const second = await started({ database: url, apiKey: first.apiKey });
    expect(second.developerId).toBe(first.developerId);
    expect(second.webhookSecret).toBe(first.webhookSecret);
  });

  it('holds a begun webhook attempt for webhookLeaseSeconds, which must outlast the timeout; refused on SQLite', async () => {
    const { url } = await databaseWithPassword();
    const first = await started({ database: url, webhookTimeoutSeconds: 5, webhookLeaseSeconds: 12 });
    const health = await fetch(`${first.baseUrl}/sandbox/health`).then(
      (r) => r.json() as Promise<{ data: { lease_seconds: number } }>,
    );
    expect(health.data.lease_seconds).toBe(12);
    for (const [options, said] of [
      [
        { database: url, apiKey: first.apiKey, webhookTimeoutSeconds: 5, webhookLeaseSeconds: 5 },
        'webhookLeaseSeconds (5 s) must be longer than the webhook timeout (5 s): ' +
          'a lease that ends while an attempt may still be out lets another server send it again',
      ],
      [
        { database: url, apiKey: first.apiKey, webhookLeaseSeconds: 3601 },
        'webhookLeaseSeconds must be a number of seconds, at most 3600',
      ],
      [
        { db: ':memory:', webhookLeaseSeconds: 30 },
        'webhookLeaseSeconds: a lease is for servers that share a PostgreSQL database',
      ],
    ] as const) {
      await expect(startSandbox({ log: () => {}, ...options })).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(said),
      });
    }
  });

  it('refuses db and database together, and says STORAGE_UNAVAILABLE, without the password, of a server that is not there', async () => {
    await expect(startSandbox({ db: ':memory:', database: 'postgres://127.0.0.1/x' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const port = await freeLoopbackPort();
    const error = (await startSandbox({
      database: `postgres://ledger:${PASSWORD}@127.0.0.1:${port}/ledger`,
      log: () => {},
    }).catch((e: unknown) => e)) as SandboxError;
    expect(error).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE' });
    expect(error.message).toContain(`postgres://ledger:***@127.0.0.1:${port}/ledger: PostgreSQL cannot be used (`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain(PASSWORD);
  });
});
