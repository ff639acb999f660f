import { randomBytes } from 'node:crypto';
import pg from 'pg';

export { freeLoopbackPort, startPostgres, type PostgresServer } from '../../scripts/postgres-server.js';

/**
 * The server every test file shares: the one named by the developer, or else the one the global
 * setup (test/helpers/postgres-global.ts) started and named here for its workers.
 */
export const SERVER_URL_VARIABLE = 'LEDGER_TEST_DATABASE_URL';

export interface TestDatabase {
  /** Connects to this database alone, as the server's test user. */
  url: string;
  name: string;
  /** Drops the database, ending any connection a test left open. */
  drop(): Promise<void>;
}

/**
 * PostgreSQL's int8 (`bigint`, every kobo column) is read as a JS `bigint`. pg's default, a string,
 * is exact too, but `Number`/`parseInt` would round above 2^53: kobo never passes through a float.
 * The parser is process-wide in pg, so a file installs it once before it reads any row.
 */
export function readInt8AsBigInt(): void {
  pg.types.setTypeParser(pg.types.builtins.INT8, BigInt);
}

/**
 * A fresh, empty database on the shared test server (CREATE DATABASE from `template0`, or from
 * `template` when given); `drop()` it after the test.
 * @example const db = await createTestDatabase(); onTestFinished(db.drop); const pool = new pg.Pool({ connectionString: db.url });
 */
export async function createTestDatabase(options: { template?: string } = {}): Promise<TestDatabase> {
  const server = sharedServerUrl();
  const name = `t_${randomBytes(8).toString('hex')}`;
  await admin(server, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${client.escapeIdentifier(options.template ?? 'template0')}`),
  );
  const url = new URL(server);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.href,
    name,
    drop: () =>
      (dropped ??= admin(server, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      )),
  };
}

function sharedServerUrl(): string {
  const url = process.env[SERVER_URL_VARIABLE];
  if (!url) {
    throw new Error(
      `No PostgreSQL server for the tests: ${SERVER_URL_VARIABLE} is not set. A file that needs one runs in the ` +
        `postgres project of vitest.config.ts (its global setup starts a server): list it there, or set ${SERVER_URL_VARIABLE} to an existing server.`,
    );
  }
  return url;
}

/**
 * Connects to `url` and checks the server can be used by the tests, or says what is wrong and how
 * to fix it, without the password.
 */
export async function checkServer(url: string): Promise<void> {
  try {
    await admin(url, (client) => client.query('SELECT 1'));
  } catch (error) {
    throw new Error(
      `No PostgreSQL server for the tests: ${SERVER_URL_VARIABLE}=${withoutPassword(url)} cannot be used ` +
        `(${(error as Error).message}). Start that server, correct the URL, or unset ${SERVER_URL_VARIABLE} ` +
        `to let the tests start their own.`,
    );
  }
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A server that goes away mid-query is an error of the query, not an unhandled 'error' event.
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(not a URL)';
  }
}
