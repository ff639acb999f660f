import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { BIN, type Cli, cleanEnv, closedPort, createCli, type RunResult } from '../helpers/cli.js';
import { type LiveService, startLiveService } from '../helpers/live-service.js';

const KEY = `svc_test_${'Z'.repeat(28)}9f3a`;
const LIVE_KEY = `svc_live_${'Y'.repeat(28)}BEEF`;

/** The binary with its profiles ($XDG_CONFIG_HOME) and HOME in the test's own folder, never the user's. */
interface ProfilesCli {
  cli: Cli;
  /** config.toml */
  file: string;
  env: Record<string, string>;
  run(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<RunResult>;
}

function profilesCli(): ProfilesCli {
  const cli = createCli();
  const env = { XDG_CONFIG_HOME: join(cli.dir, 'config'), HOME: cli.dir };
  return {
    cli,
    env,
    file: join(cli.dir, 'config', 'ledger', 'config.toml'),
    run: (args, options = {}) => cli.run(args, { ...options, env: { ...env, ...options.env } }),
  };
}

function expectPrivate(file: string): void {
  expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
  expect((statSync(join(file, '..')).mode & 0o777).toString(8)).toBe('700');
}

describe('ledger profiles add|list|use|remove', () => {
  let p: ProfilesCli;
  beforeEach(() => {
    p = profilesCli();
  });
  afterEach(() => p.cli.cleanup());

  it('add --api-key-stdin reads the key from stdin: never in argv (what ps shows) while it runs, nor in the output; the file is 0600 in 0700', async () => {
    const args = ['profiles', 'add', 'staging', '--base-url', 'https://staging.example.com/', '--api-key-stdin'];
    const child = execa(process.execPath, [BIN, ...args], {
      cwd: p.cli.dir,
      env: cleanEnv(p.env),
      extendEnv: false,
      reject: false,
    });
    // It waits for stdin: what others can read of the running process holds no key.
    if (existsSync(`/proc/${child.pid}/cmdline`)) {
      const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline).toContain('--api-key-stdin');
      expect(cmdline).not.toContain('svc_test_');
    }
    child.stdin!.end(`  ${KEY}\n`);
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
    expect(r.stdout).toBe(
      [
        `Added profile staging in ${p.file} (mode 0600).`,
        'Base URL  https://staging.example.com',
        'Key       svc_test_…9f3a',
        'Live      no',
        'Use `ledger profiles use staging` to make it the default.',
      ].join('\n'),
    );
    expect(readFileSync(p.file, 'utf8')).toContain(
      `[profiles.staging]\nbase_url = "https://staging.example.com"\napi_key = "${KEY}"\n`,
    );
    expect(readFileSync(p.file, 'utf8')).not.toContain('default');
    expectPrivate(p.file);
  });

  it("add --api-key-env stores the variable's name only; list masks every key, in a table, TSV and an exact --json", async () => {
    expect(
      (
        await p.run(['profiles', 'add', 'staging', '--base-url', 'https://staging.example.com', '--api-key-stdin'], {
          input: KEY,
        })
      ).exitCode,
    ).toBe(0);
    const prod = await p.run(
      ['profiles', 'add', 'prod', '--base-url', 'https://api.example.com', '--api-key-env', 'PROD_KEY', '--live'],
      { env: { PROD_KEY: LIVE_KEY } },
    );
    expect(prod.exitCode).toBe(0);
    expect(prod.stdout).toContain(
      'Key       $PROD_KEY (svc_live_…BEEF)\nLive      yes: every command with it needs --live\n',
    );
    const lab = await p.run(['profiles', 'add', 'lab', '--base-url', 'http://10.1.2.3:4010', '--insecure']);
    expect(lab.stdout).toContain('Key       none: give --api-key to each command');
    // A live key in a profile not marked live is live all the same, and says so.
    const sly = await p.run(['profiles', 'add', 'sly', '--base-url', 'https://api.example.com', '--api-key-stdin'], {
      input: LIVE_KEY,
    });
    expect(sly.stdout).toContain('Live      yes, by its key (svc_live_): every command with it needs --live\n');
    expect((await p.run(['profiles', 'use', 'staging'])).exitCode).toBe(0);
    const text = readFileSync(p.file, 'utf8');
    expect(text).toContain(
      '[profiles.prod]\nbase_url = "https://api.example.com"\napi_key_env = "PROD_KEY"\nlive = true\n',
    );

    const list = await p.run(['profiles', 'list', '--json'], { env: { PROD_KEY: LIVE_KEY } });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).not.toContain(KEY);
    expect(JSON.parse(list.stdout)).toEqual([
      {
        name: 'lab',
        base_url: 'http://10.1.2.3:4010',
        key: null,
        key_env: null,
        key_env_set: null,
        live: false,
        insecure: true,
        default: false,
      },
      {
        name: 'prod',
        base_url: 'https://api.example.com',
        key: 'svc_live_…BEEF',
        key_env: 'PROD_KEY',
        key_env_set: true,
        live: true,
        insecure: false,
        default: false,
      },
      {
        name: 'sly',
        base_url: 'https://api.example.com',
        key: 'svc_live_…BEEF',
        key_env: null,
        key_env_set: null,
        live: true,
        insecure: false,
        default: false,
      },
      {
        name: 'staging',
        base_url: 'https://staging.example.com',
        key: 'svc_test_…9f3a',
        key_env: null,
        key_env_set: null,
        live: false,
        insecure: false,
        default: true,
      },
    ]);
    // A pipe gets TSV, the variable unset said so.
    expect((await p.run(['profiles', 'list'])).stdout).toBe(
      [
        'default\tname\tbase_url\tkey\tlive\tinsecure',
        'false\tlab\thttp://10.1.2.3:4010\t\ttest\tinsecure',
        'false\tprod\thttps://api.example.com\t$PROD_KEY (not set)\tLIVE\t',
        'false\tsly\thttps://api.example.com\tsvc_live_…BEEF\tLIVE\t',
        'true\tstaging\thttps://staging.example.com\tsvc_test_…9f3a\ttest\t',
        '',
      ].join('\n'),
    );
    const table = await p.run(['profiles', 'list', '--format', 'table']);
    expect(table.stdout).toMatch(
      /^│ \*\s+│ staging\s+│ https:\/\/staging\.example\.com\s+│ svc_test_…9f3a\s+│ test\s+│ —\s+│$/m,
    );
    expect((await p.run(['profiles', 'list', '--quiet'])).stdout).toBe('lab\nprod\nsly\nstaging\n');
  });

  it('use sets the default, remove removes a profile and the default with it, and an unknown name is PROFILE_NOT_FOUND', async () => {
    // The error names the profiles there are; the file holds keys, so it stays 0600 in a 0700 folder.
    for (const name of ['a', 'b'])
      expect(
        (
          await p.run(['profiles', 'add', name, '--base-url', `https://${name}.example.com`, '--api-key-stdin'], {
            input: KEY,
          })
        ).exitCode,
      ).toBe(0);
    const use = await p.run(['profiles', 'use', 'b']);
    expect(use.exitCode).toBe(0);
    expect(use.stdout).toBe(
      'Default profile: b (https://b.example.com), used where no flag, LEDGER_PROFILE, LEDGER_BASE_URL or sandbox state here names another service.\n',
    );
    expect(readFileSync(p.file, 'utf8')).toContain('default = "b"\n');
    expectPrivate(p.file);

    expect(await p.run(['profiles', 'use', 'c'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `Error [PROFILE_NOT_FOUND]: no profile named "c" in ${p.file}; profiles: a, b\n`,
    });
    expect((await p.run(['profiles', 'remove', 'c'])).stderr).toBe(
      `Error [PROFILE_NOT_FOUND]: no profile named "c" in ${p.file}; profiles: a, b\n`,
    );

    expect(await p.run(['profiles', 'remove', 'a'])).toEqual({
      exitCode: 0,
      stdout: 'Removed profile a.\n',
      stderr: '',
    });
    expect(readFileSync(p.file, 'utf8')).not.toContain('[profiles.a]');
    expectPrivate(p.file);
    const removed = await p.run(['profiles', 'remove', 'b']);
    expect(removed.stdout).toBe(
      'Removed profile b. It was the default: there is none now (`ledger profiles use NAME` sets one).\n',
    );
    expect(readFileSync(p.file, 'utf8')).not.toContain('default');
    expectPrivate(p.file);
    expect((await p.run(['profiles', 'list', '--json'])).stdout).toBe('[]\n');
  });

  it('refuses, with nothing written, an insecure URL, a name taken, and a stdin that holds no key', async () => {
    // http:// on a network needs --insecure (INSECURE_URL) and a name taken needs --force; what stdin held
    // instead of a key may be a password, so it is not echoed.
    const insecure = await p.run(['profiles', 'add', 'lab', '--base-url', 'http://10.0.0.5:4010', '--api-key-stdin'], {
      input: KEY,
    });
    expect(insecure.exitCode).toBe(2);
    expect(insecure.stderr).toMatch(
      /^Error \[INSECURE_URL\]: base URL http:\/\/10\.0\.0\.5:4010 \(from --base-url\) is http:\/\/ on a network: .*add --insecure\n$/s,
    );
    expect(existsSync(p.file)).toBe(false);
    // --insecure is for test servers: never with a live profile.
    const liveInsecure = await p.run([
      'profiles',
      'add',
      'lab',
      '--base-url',
      'http://10.0.0.5:4010',
      '--insecure',
      '--live',
    ]);
    expect([liveInsecure.exitCode, liveInsecure.stderr]).toEqual([
      2,
      expect.stringMatching(/^Error \[INSECURE_URL\]: a live profile must be https:\/\/: /),
    ]);
    expect(existsSync(p.file)).toBe(false);

    const notAKey = 'my-secret-password';
    const bad = await p.run(['profiles', 'add', 'x', '--base-url', 'https://x.example.com', '--api-key-stdin'], {
      input: notAKey,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      'Error [USAGE]: --api-key-stdin: what stdin held does not look like an API key (svc_test_… or svc_live_…); it is not shown here; nothing was written\n',
    );
    const empty = await p.run(['profiles', 'add', 'x', '--base-url', 'https://x.example.com', '--api-key-stdin']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toMatch(/^Error \[USAGE\]: --api-key-stdin: nothing on stdin/);
    expect(existsSync(p.file)).toBe(false);

    expect(
      (await p.run(['profiles', 'add', 'x', '--base-url', 'https://x.example.com', '--api-key-stdin'], { input: KEY }))
        .exitCode,
    ).toBe(0);
    const taken = await p.run(['profiles', 'add', 'x', '--base-url', 'https://y.example.com']);
    expect(taken).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `Error [PROFILE_EXISTS]: profile x already exists (https://x.example.com) in ${p.file}: pass --force to replace it\n`,
    });
    const replaced = await p.run(['profiles', 'add', 'x', '--base-url', 'https://y.example.com', '--force']);
    expect(replaced.stdout).toMatch(/^Replaced profile x in /);
    expect(readFileSync(p.file, 'utf8')).not.toContain(KEY);
  });
});

/** A developer account of `sandbox`, with its own key. */
async function developer(sandbox: RunningSandbox, name: string): Promise<string> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/developers`, {
    method: 'POST',
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ business_name: name }),
  });
  return ((await response.json()) as { data: { api_key: string } }).data.api_key;
}

describe('one order of precedence, end to end, named by `whoami`', () => {
  let sandbox: RunningSandbox;
  let p: ProfilesCli;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    sandbox = await startSandbox();
    for (const name of ['ACME', 'ENVCO', 'STATECO', 'FLAGCO']) keys[name] = await developer(sandbox, name);
    p = profilesCli();
  });
  afterAll(async () => {
    p.cli.cleanup();
    await sandbox.stop();
  });

  it("flags, then --profile or LEDGER_PROFILE, the environment, this folder's state, and the default profile, in that order", async () => {
    // Each names its own URL and developer, so the output shows which one was used.
    const local = sandbox.baseUrl.replace('127.0.0.1', 'localhost');
    expect(
      (
        await p.run(['profiles', 'add', 'team', '--base-url', sandbox.baseUrl, '--api-key-stdin'], {
          input: sandbox.apiKey,
        })
      ).exitCode,
    ).toBe(0);
    expect(
      (await p.run(['profiles', 'add', 'acme', '--base-url', local, '--api-key-stdin'], { input: keys.ACME })).exitCode,
    ).toBe(0);
    expect((await p.run(['profiles', 'use', 'team'])).exitCode).toBe(0);
    const state = join(p.cli.dir, '.ledger');
    mkdirSync(state, { mode: 0o700 });
    writeFileSync(join(state, 'sandbox.json'), JSON.stringify({ base_url: sandbox.baseUrl, api_key: keys.STATECO }), {
      mode: 0o600,
    });
    const environment = { LEDGER_BASE_URL: sandbox.baseUrl, LEDGER_API_KEY: keys.ENVCO! };

    const whoami = async (args: string[], env: Record<string, string> = {}) => {
      const r = await p.run(['whoami', ...args, '--json'], { env });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const { source, from, profile, base_url, developer } = JSON.parse(r.stdout);
      return [source, from, profile, base_url, developer.name];
    };
    expect(await whoami(['--base-url', local, '--api-key', keys.FLAGCO!, '--profile', 'acme'], environment)).toEqual([
      'flag',
      '--base-url',
      null,
      local,
      'FLAGCO',
    ]);
    expect(await whoami(['--profile', 'acme'], environment)).toEqual([
      'profile',
      'profile acme (--profile)',
      'acme',
      local,
      'ACME',
    ]);
    expect(await whoami([], { ...environment, LEDGER_PROFILE: 'acme' })).toEqual([
      'profile',
      'profile acme (LEDGER_PROFILE)',
      'acme',
      local,
      'ACME',
    ]);
    expect(await whoami([], environment)).toEqual(['env', 'LEDGER_BASE_URL', null, sandbox.baseUrl, 'ENVCO']);
    expect(await whoami([])).toEqual(['state', join(state, 'sandbox.json'), null, sandbox.baseUrl, 'STATECO']);
    rmSync(state, { recursive: true });
    expect(await whoami([])).toEqual(['default-profile', 'default profile team', 'team', sandbox.baseUrl, 'SANDBOX']);

    const full = await p.run(['whoami', '--json']);
    expect(JSON.parse(full.stdout)).toEqual({
      source: 'default-profile',
      from: 'default profile team',
      profile: 'team',
      base_url: sandbox.baseUrl,
      key: `svc_test_…${sandbox.apiKey.slice(-4)}`,
      key_kind: 'test',
      live: false,
      developer: { id: sandbox.developerId, name: 'SANDBOX' },
      key_works: true,
    });
    expect(full.stdout).not.toContain(sandbox.apiKey);
  });

  it('`ledger --profile NAME wallets list` and `ledger wallets list --profile NAME` both use the profile', async () => {
    const wallet = [
      'wallets',
      'create',
      '--customer-reference',
      'acme-1',
      '--first-name',
      'Ada',
      '--last-name',
      'Obi',
      '--email',
      'ada@example.com',
      '--quiet',
    ];
    const created = await p.run([...wallet, '--profile', 'acme']);
    expect(created.exitCode).toBe(0);
    const id = created.stdout.trim();
    for (const args of [
      ['--profile', 'acme', 'wallets', 'list', '--json'],
      ['wallets', 'list', '--profile', 'acme', '--json'],
    ]) {
      const r = await p.run(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(
        JSON.parse(r.stdout).items.map((w: { id: string }) => w.id),
        args.join(' '),
      ).toEqual([id]);
    }
    // The default profile (another developer) does not have it.
    expect(JSON.parse((await p.run(['wallets', 'list', '--json'])).stdout).items).toEqual([]);
  });

  it("profiles show names the developer of a sandbox's key; a refused key is exit 1, a service out of reach exit 3, each after the profile", async () => {
    const shown = await p.run(['profiles', 'show', 'acme', '--json']);
    expect(shown.exitCode).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      name: 'acme',
      key: `svc_test_…${keys.ACME!.slice(-4)}`,
      key_works: true,
      developer: { name: 'ACME' },
    });
    const people = await p.run(['profiles', 'show']);
    expect(people.stdout).toMatch(/^team \(default\)\n.*\nDeveloper SANDBOX \([^)]+\)\nCheck     key works\n$/s);

    expect(
      (await p.run(['profiles', 'add', 'stale', '--base-url', sandbox.baseUrl, '--api-key-stdin'], { input: KEY }))
        .exitCode,
    ).toBe(0);
    const stale = await p.run(['profiles', 'show', 'stale']);
    expect(stale.exitCode).toBe(1);
    expect(stale.stdout).toContain('Check     key refused (UNAUTHORIZED)\n');
    expect(stale.stderr).toMatch(/^Error \[UNAUTHORIZED\]: /);

    expect(
      (
        await p.run(
          ['profiles', 'add', 'gone', '--base-url', `http://127.0.0.1:${await closedPort()}`, '--api-key-stdin'],
          { input: KEY },
        )
      ).exitCode,
    ).toBe(0);
    const gone = await p.run(['profiles', 'show', 'gone']);
    expect(gone.exitCode).toBe(3);
    expect(gone.stdout).toContain('Check     not checked: the service cannot be reached\n');
  });
});

describe('profiles show and whoami against a live service (HTTPS, no /sandbox)', () => {
  let sandbox: RunningSandbox;
  let live: LiveService;
  let certs: string;
  let p: ProfilesCli;
  let run: (args: string[]) => Promise<RunResult>;
  beforeAll(async () => {
    sandbox = await startSandbox();
    certs = mkdtempSync(join(tmpdir(), 'ledger-live-'));
    live = await startLiveService(certs, sandbox.baseUrl, { [LIVE_KEY]: sandbox.apiKey });
    p = profilesCli();
    run = (args) => p.run(args, { env: { NODE_EXTRA_CA_CERTS: live.caFile } });
    expect(
      (
        await p.run(['profiles', 'add', 'prod', '--base-url', live.url, '--api-key-stdin', '--live'], {
          input: LIVE_KEY,
        })
      ).exitCode,
    ).toBe(0);
  });
  afterAll(async () => {
    p.cli.cleanup();
    await live.close();
    await sandbox.stop();
    rmSync(certs, { recursive: true, force: true });
  });

  it('without --live nothing is sent: the profile is shown and what would be checked is said (exit 0)', async () => {
    const shown = await run(['profiles', 'show', 'prod']);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toBe(
      [
        'prod',
        `Base URL  ${live.url}`,
        'Key       svc_live_…BEEF',
        'Live      yes: every command with it needs --live',
        'Check     not checked: add --live to check the key against the live service (GET /sandbox/keys, else GET /v1/agents?limit=1; nothing was sent)',
        '',
      ].join('\n'),
    );
    const whoami = await run(['whoami', '--profile', 'prod', '--json']);
    expect(whoami.exitCode).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ key_kind: 'live', live: true, key_works: null, developer: null });
    expect(live.requests).toEqual([]);
  });

  it('with --live the key is checked; the service does not say whose it is', async () => {
    const shown = await run(['profiles', 'show', 'prod', '--live']);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('Check     key works; the service does not say which developer it belongs to\n');
    // What the service offers is asked without the key; it has no /sandbox, so only the seed's list is asked with it.
    expect(live.requests).toEqual([
      { method: 'GET', path: '/openapi.json', key: undefined },
      { method: 'GET', path: '/v1/agents?limit=1', key: LIVE_KEY },
    ]);
    const whoami = await run(['--profile', 'prod', 'whoami', '--live', '--json']);
    expect(JSON.parse(whoami.stdout)).toEqual({
      source: 'profile',
      from: 'profile prod (--profile)',
      profile: 'prod',
      base_url: live.url,
      key: 'svc_live_…BEEF',
      key_kind: 'live',
      live: true,
      developer: null,
      key_works: true,
    });
  });
});
