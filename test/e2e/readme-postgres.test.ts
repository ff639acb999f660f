import { execa } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { sectionOf } from '../helpers/docs.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * "A shared sandbox on PostgreSQL" in docs/walkthroughs.md, run line by line in one bash session as a reader
 * would paste it. The `docker` lines are not run: the test's own PostgreSQL server stands in, its
 * URL (with the README's password, which that server does not ask for) in place of the README's.
 * Ports 4010 and 4011 become free ones, and the profile's URL the second server's. Each line with a
 * comment has a check that the comment is true; a commented line without a check, or a check
 * without its line, fails.
 */
const SECTION = sectionOf('docs/walkthroughs.md', '## A shared sandbox on PostgreSQL');
const LINES = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1]!.split('\n'))
  .filter((l) => l.trim() !== '');
const README_URL = 'postgres://postgres:ledger@127.0.0.1:5432/postgres';
const NOT_RUN = /^(docker |until docker )/;
const commandOf = (line: string) => line.replace(/\s+#.*$/, '').trim();

interface Ran {
  stdout: string;
  stderr: string;
  code: number;
}

let database: TestDatabase;
let url: string;
let dir: string;
let work: string;
let run: (line: string) => Promise<Ran>;
const stateOf = (name: string) =>
  JSON.parse(readFileSync(join(work, '.ledger', name, 'sandbox.json'), 'utf8')) as {
    base_url: string;
    api_key?: string;
    db: string;
  };
const chosenKey = () =>
  /LEDGER_SANDBOX_API_KEY="(svc_test_[0-9a-f]{32})"/.exec(readFileSync(join(work, 'state.sh'), 'utf8'))![1]!;
const api = async (baseUrl: string, method: string, path: string, body?: unknown) =>
  (
    (await (
      await fetch(baseUrl + path, {
        method,
        headers: { 'x-api-key': chosenKey(), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json()) as { data: any }
  ).data;

const CHECKS: Record<string, (r: Ran) => void | Promise<void>> = {
  'docker run -d --name ledger-pg -p 5432:5432 -e POSTGRES_PASSWORD=ledger postgres:17': () => {},
  'LEDGER_HOME=.ledger/a ledger sandbox start --port 4010 --detach': (r) => {
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`API key   ${chosenKey()}\n`);
    expect(r.stdout).toMatch(/^Database  postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/t_\w+ \(PostgreSQL/m);
    expect(r.stdout).not.toContain('postgres:ledger@');
    expect(JSON.stringify(stateOf('a'))).not.toContain('postgres:ledger@');
  },
  'LEDGER_HOME=.ledger/b ledger sandbox start --port 4011 --detach': async (r) => {
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`API key   ${chosenKey()}\n`);
    const [a, b] = [stateOf('a'), stateOf('b')];
    expect(b.api_key).toBe(chosenKey());
    expect(await api(b.base_url, 'GET', '/sandbox/keys')).toEqual(await api(a.base_url, 'GET', '/sandbox/keys'));
    // Something in the books, written through the first server, for the last line to find through the second.
    await api(a.base_url, 'POST', '/v1/wallets', {
      customer_reference: 'ada',
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'ada@example.com',
    });
  },
  'ledger --profile shared wallets list': (r) => {
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/\tada\t/);
  },
};

beforeAll(async () => {
  database = await createTestDatabase();
  const withPassword = new URL(database.url);
  withPassword.password = 'ledger';
  url = withPassword.href;
  dir = mkdtempSync(join(tmpdir(), 'ledger-readme-postgres-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'ledger'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'ledger'), 0o755);
  work = join(dir, 'work');
  mkdirSync(work);
  const env = cleanEnv({ PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: join(dir, 'config') });
  run = async (line) => {
    const pasted = line
      .replaceAll(README_URL, url)
      .replace(/--port 401[01]/, '--port 0')
      .replace('http://127.0.0.1:4011', () => stateOf('b').base_url);
    const script = `set -a; [ -f state.sh ] && . ./state.sh\n${pasted}\nstatus=$?\nexport -p > state.sh\nexit $status`;
    const r = await execa('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: work,
      env,
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      timeout: 60_000,
    });
    return { stdout: String(r.stdout), stderr: String(r.stderr), code: r.exitCode ?? -1 };
  };
});

afterAll(async () => {
  for (const name of ['a', 'b']) await run?.(`LEDGER_HOME=.ledger/${name} ledger sandbox stop`);
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('README: a shared sandbox on PostgreSQL', () => {
  it('has a check for every commented line and a line for every check', () => {
    expect(LINES.length).toBeGreaterThan(4);
    expect(SECTION).toContain(README_URL);
    const commented = LINES.filter((l) => /\s#\s/.test(l)).map(commandOf);
    expect(commented.sort()).toEqual(Object.keys(CHECKS).sort());
  });

  it('runs as written, each comment true', async () => {
    for (const line of LINES) {
      // The test's PostgreSQL server stands in for the container.
      if (NOT_RUN.test(line)) continue;
      const result = await run(line);
      const check = CHECKS[commandOf(line)];
      if (check) await check(result);
      else expect([line, result.code, result.stderr]).toEqual([line, 0, '']);
    }
  });
});
