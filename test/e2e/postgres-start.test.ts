import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type Cli, createCli } from '../helpers/cli.js';
import { createTestDatabase, freeLoopbackPort } from '../helpers/postgres.js';

/**
 * `ledger sandbox start --database postgres://…` (decisions: Storage): the URL's password never reaches
 * argv, the log, the banner, the state file, `sandbox status` or an error; servers that share the
 * database share its owner, and only the first start makes a key.
 */

const PASSWORD = 'Pg-e2e-s3cret-pw';
const KEY = /svc_test_[0-9A-Za-z]{32}/;

interface Started {
  base_url: string;
  api_key: string | null;
  pid: number;
  db: string;
  log_file: string;
}

/** A fresh database's URL with a password (the test server trusts loopback: any password connects), and how it is shown. */
async function database(): Promise<{ url: string; shown: string }> {
  const db = await createTestDatabase();
  onTestFinished(db.drop);
  const url = new URL(db.url);
  url.password = PASSWORD;
  return { url: url.href, shown: url.href.replace(`:${PASSWORD}@`, ':***@') };
}

function cli(): Cli {
  const made = createCli();
  onTestFinished(async () => {
    await made.run(['sandbox', 'stop']);
    made.cleanup();
  });
  return made;
}

async function start(where: Cli, args: string[], env: Record<string, string> = {}) {
  const r = await where.run(['sandbox', 'start', '--detach', '--port', '0', ...args], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
}

const health = async (baseUrl: string) =>
  ((await fetch(`${baseUrl}/sandbox/health`).then((r) => r.json())) as { data: Record<string, string> }).data;
const keyInfo = async (baseUrl: string, key: string) =>
  (
    (await fetch(`${baseUrl}/sandbox/keys`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as {
      data: { developer_id: string };
    }
  ).data;
const stateOf = (where: Cli) => readFileSync(join(where.dir, '.ledger', 'sandbox.json'), 'utf8');

describe('sandbox start --database postgres://…', () => {
  it('shows the URL with its password as *** everywhere, and hands it to the detached server through its environment, never argv', async () => {
    const { url, shown } = await database();
    const here = cli();
    const r = await start(here, [
      '--json',
      '--database',
      url,
      '--pool-size',
      '4',
      '--statement-timeout',
      '2.5',
      '--webhook-timeout',
      '5',
      '--webhook-lease',
      '12',
    ]);
    const started = JSON.parse(r.stdout) as Started;
    expect(started).toMatchObject({ db: shown, api_key: expect.stringMatching(KEY) });
    const argv = readFileSync(`/proc/${started.pid}/cmdline`, 'utf8').split('\0');
    expect(argv.join(' ')).not.toContain(PASSWORD);
    expect(argv.join(' ')).not.toContain('postgres://');
    expect(argv.join(' ')).toContain('--pool-size 4 --statement-timeout 2.5 --webhook-lease 12');
    expect(readFileSync(`/proc/${started.pid}/environ`, 'utf8').split('\0')).toContain(`LEDGER_DATABASE_URL=${url}`);

    expect(await health(started.base_url)).toMatchObject({
      backend: 'postgres',
      database: shown,
      server_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      lease_seconds: 12,
    });
    const status = await here.run(['sandbox', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      running: true,
      pid: started.pid,
      db: shown,
      backend: 'postgres',
      server_id: (await health(started.base_url)).server_id,
      lease_seconds: 12,
      deliveries_leased_by_this_server: 0,
    });
    const table = await here.run(['sandbox', 'status']);
    expect(table.stdout).toContain(
      `Database  ${shown} (PostgreSQL)\nWebhooks  each attempt leased for 12 s; 0 out from this server now\n`,
    );
    // Commands here use it as any sandbox, through the state file.
    expect((await here.run(['wallets', 'list', '--json'])).exitCode).toBe(0);

    const log = readFileSync(started.log_file, 'utf8');
    expect(log).toContain(
      `Database  ${shown} (PostgreSQL: pool of 4, statements cancelled after 2.5 s, webhook attempts leased for 12 s)`,
    );
    for (const text of [r.stdout, r.stderr, log, stateOf(here), status.stdout, table.stdout])
      expect(text).not.toContain(PASSWORD);
    expect(JSON.parse(stateOf(here))).toMatchObject({ db: shown, api_key: started.api_key });

    const stopped = await here.run(['sandbox', 'stop', '--json']);
    expect(JSON.parse(stopped.stdout)).toEqual({ stopped: true, pid: started.pid });
  });

  it("a second server on the database joins the owner, prints no key and says where the key is, and the first one's key keeps working", async () => {
    const { url } = await database();
    const [a, b] = [cli(), cli()];
    // The first from LEDGER_DATABASE_URL, the second from --database: the same setting.
    const first = JSON.parse((await start(a, ['--json'], { LEDGER_DATABASE_URL: url })).stdout) as Started;
    const second = await start(b, ['--database', url]);
    expect(second.stdout).not.toMatch(KEY);
    expect(second.stdout).toContain('API key   none issued: this database already has its owner');
    expect(second.stdout).toContain('give it with --api-key (or LEDGER_SANDBOX_API_KEY) at every start');
    const state = JSON.parse(stateOf(b));
    expect(state).not.toHaveProperty('api_key');
    // Without --webhook-lease, the lease is the webhook timeout + 15 s.
    expect(readFileSync(join(b.dir, '.ledger', 'sandbox.log'), 'utf8')).toContain('webhook attempts leased for 30 s)');

    // Both answer for one owner with the first key, which still works on the first.
    const owner = await keyInfo(first.base_url, first.api_key!);
    expect(await keyInfo(state.base_url, first.api_key!)).toEqual(owner);
    expect((await health(state.base_url)).server_id).not.toBe((await health(first.base_url)).server_id);
    const wallet = await a.json([
      'wallets',
      'create',
      '--customer-reference',
      'ada',
      '--first-name',
      'Ada',
      '--last-name',
      'Obi',
      '--email',
      'ada@example.com',
    ]);
    const seen = await b.run(['wallets', 'get', wallet.id, '--json'], {
      env: { LEDGER_BASE_URL: state.base_url, LEDGER_API_KEY: first.api_key! },
    });
    expect([seen.exitCode, JSON.parse(seen.stdout).id]).toEqual([0, wallet.id]);

    // A command in the second's folder, with no key to send, says how to give one.
    const keyless = await b.run(['wallets', 'list']);
    expect(keyless.exitCode).toBe(2);
    expect(keyless.stderr).toMatch(
      /^Error \[NO_API_KEY\]: the sandbox in .* joined a shared database and has no key to give: set LEDGER_BASE_URL=/,
    );

    // Started again with the owner's key, it keeps it: nothing is issued, the first server's users go on.
    expect((await b.run(['sandbox', 'stop'])).exitCode).toBe(0);
    const again = JSON.parse(
      (await start(b, ['--json', '--database', url], { LEDGER_SANDBOX_API_KEY: first.api_key! })).stdout,
    ) as Started;
    expect(again.api_key).toBe(first.api_key);
    expect((await a.run(['wallets', 'list', '--json'])).exitCode).toBe(0);
    expect((await b.run(['wallets', 'list', '--json'])).exitCode).toBe(0);
  });

  it('says STORAGE_UNAVAILABLE (exit 1) of a PostgreSQL that is not there or refuses the database, naming the URL without its password', async () => {
    const here = cli();
    const port = await freeLoopbackPort();
    const { url } = await database();
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    for (const [target, said] of [
      [`postgres://ledger:${PASSWORD}@127.0.0.1:${port}/ledger`, /ECONNREFUSED/],
      [missing.href, /database "no_such_database" does not exist/],
    ] as const) {
      for (const detach of [[], ['--detach']]) {
        const r = await here.run(['sandbox', 'start', '--port', '0', ...detach, '--database', target]);
        expect([r.exitCode, r.stdout]).toEqual([1, '']);
        expect(r.stderr).toMatch(
          /Error \[STORAGE_UNAVAILABLE\]: postgres:\/\/[^:]+:\*\*\*@127\.0\.0\.1:\d+\/\w+: PostgreSQL cannot be used \(/,
        );
        expect(r.stderr).toMatch(said);
        expect(r.stderr).not.toContain(PASSWORD);
      }
    }
  });

  it('refuses, as usage errors, --database with --db or --memory, PostgreSQL settings on SQLite, and bad settings', async () => {
    const here = cli();
    const url = `postgres://ledger:${PASSWORD}@127.0.0.1:1/ledger`;
    for (const [args, env, said] of [
      [['--database', url, '--db', 'x.db'], {}, /cannot be used with/],
      [['--database', url, '--memory'], {}, /cannot be used with/],
      [['--memory'], { LEDGER_DATABASE_URL: url }, /cannot be used with/],
      [
        ['--memory', '--pool-size', '4'],
        {},
        /^Error \[USAGE\]: --pool-size is a PostgreSQL setting: this sandbox runs on SQLite/,
      ],
      [['--statement-timeout', '5'], {}, /^Error \[USAGE\]: --statement-timeout is a PostgreSQL setting/],
      [
        ['--database', url, '--pool-size', '0'],
        {},
        /^Error \[USAGE\]: --pool-size must be a whole number of connections from 1 to 1000/,
      ],
      [
        ['--database', url],
        { LEDGER_PG_STATEMENT_TIMEOUT: 'soon' },
        /^Error \[USAGE\]: --statement-timeout \(from LEDGER_PG_STATEMENT_TIMEOUT\) must be a number of seconds/,
      ],
      [
        ['--memory', '--webhook-lease', '30'],
        {},
        /^Error \[USAGE\]: --webhook-lease is a PostgreSQL setting: this sandbox runs on SQLite/,
      ],
      [
        ['--database', url, '--webhook-lease', '15'],
        {},
        new RegExp(
          /^Error \[USAGE\]: --webhook-lease \(15 s\) must be longer than the webhook timeout \(15 s\): /.source +
            /a lease that ends while an attempt may still be out lets another server send it again/.source,
        ),
      ],
      [
        ['--database', url, '--webhook-timeout', '5', '--webhook-lease', '3601'],
        {},
        /^Error \[USAGE\]: --webhook-lease must be a number of seconds, at most 3600/,
      ],
      [
        ['--database', url],
        { LEDGER_PG_WEBHOOK_LEASE: 'soon' },
        /^Error \[USAGE\]: --webhook-lease \(from LEDGER_PG_WEBHOOK_LEASE\) must be a number of seconds/,
      ],
      [
        ['--database', `mysql://ledger:${PASSWORD}@127.0.0.1/ledger`],
        {},
        /^Error \[USAGE\]: --database takes a postgres:\/\/ or postgresql:\/\/ URL, a SQLite file path or :memory:, not a mysql:\/\/ URL/,
      ],
    ] as const) {
      const r = await here.run(['sandbox', 'start', '--detach', '--port', '0', ...args], { env });
      expect([r.exitCode, r.stdout], r.stderr).toEqual([2, '']);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toContain(PASSWORD);
    }
    // A PostgreSQL setting in the environment is left alone by a SQLite sandbox (it may be another's).
    const sqlite = await here.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], {
      env: { LEDGER_PG_POOL_SIZE: '4', LEDGER_PG_WEBHOOK_LEASE: '1' },
    });
    expect(sqlite.exitCode, sqlite.stderr).toBe(0);
  });
});
