import { execa } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { sectionOf } from '../helpers/docs.js';
import { type LiveService, startLiveService } from '../helpers/live-service.js';

/**
 * "Against a shared or live service" in docs/walkthroughs.md, run line by line in one bash session as a
 * reader would paste it: its staging service is a sandbox (shared, as a team's would be), and its
 * live one a local HTTPS stand-in in front of that sandbox that takes one `svc_live_` key for it and
 * offers only the seed's /v1, trusted through NODE_EXTRA_CA_CERTS. Each line with a comment has a check that the comment is
 * true; a commented line without a check, or a check without its line, fails.
 */
const SECTION = sectionOf('docs/walkthroughs.md', '## Against a shared or live service');
const LINES = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1]!.split('\n'))
  .filter((l) => l.trim() !== '');
/** The README's two services: staging a shared sandbox (the sandbox itself), the live one the HTTPS stand-in. */
const STAGING = 'https://ledger.staging.example.com';
const PROD = 'https://api.example.com';
const LIVE_KEY = 'svc_live_ReadmeStandInKey0000000000000000';
const commandOf = (line: string) => line.replace(/\s+#.*$/, '').trim();

interface Ran {
  stdout: string;
  stderr: string;
  code: number;
}

let sandbox: RunningSandbox;
let live: LiveService;
let dir: string;
let failedLog: string;
let heldItem: string;
const vars: Record<string, string> = {};
const configFile = () => join(dir, 'config', 'ledger', 'config.toml');
const liveRequests = () => live.requests.filter((r) => r.key === LIVE_KEY);

const CHECKS: Record<string, (r: Ran) => void | Promise<void>> = {
  'printf \'%s\' "$STAGING_KEY" | ledger profiles add staging --base-url https://ledger.staging.example.com --api-key-stdin':
    (r) => {
      expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
      expect(r.stdout).toContain(`svc_test_…${sandbox.apiKey.slice(-4)}`);
      expect(r.stdout + r.stderr).not.toContain(sandbox.apiKey);
      expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    },
  'ledger profiles add prod --base-url https://api.example.com --api-key-env PROD_LEDGER_KEY --live': (r) => {
    expect(r.code).toBe(0);
    const file = readFileSync(configFile(), 'utf8');
    expect(file).toContain('api_key_env = "PROD_LEDGER_KEY"');
    expect(file).not.toContain(LIVE_KEY);
  },
  'ledger profiles use staging': (r) => {
    expect(r.code).toBe(0);
    expect(readFileSync(configFile(), 'utf8')).toMatch(/^default = "staging"$/m);
  },
  'ledger whoami': (r) => {
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('default profile staging');
    expect(r.stdout).toContain(sandbox.baseUrl);
    expect(r.stdout).toMatch(/Developer +\S+/);
    expect(r.stdout).toMatch(/\btest\b/);
  },
  'ledger --profile prod suspense list': (r) => {
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^Error \[LIVE_KEY\]: profile prod is live: .* needs --live; nothing was sent\n$/);
    expect(liveRequests()).toEqual([]);
  },
  'ledger --profile prod --live suspense list --status PENDING': (r) => {
    expect(r.code).toBe(0);
    // On a pipe: rows, no target line (that is for tables), and the held payment in them.
    expect(r.stdout.split('\n')[0]).not.toMatch(/^→/);
    expect(r.stdout).toContain(heldItem.slice(0, 8));
    // The seed's own list and filter, then the wallets the rows name: reads only.
    expect(liveRequests()[0]!.path).toBe('/v1/suspense?page=1&limit=20&status=PENDING');
    expect(liveRequests().every((q) => q.method === 'GET')).toBe(true);
  },
  'ledger --profile prod --live webhooks retry "$LOG" --yes': async (r) => {
    expect(r.code).toBe(0);
    expect(vars.LOG).toBe(failedLog);
    expect(liveRequests().at(-1)).toEqual({
      method: 'POST',
      path: `/v1/webhook-logs/${failedLog}/retry`,
      key: LIVE_KEY,
    });
    const log = (await (
      await fetch(`${sandbox.baseUrl}/v1/webhook-logs?status=DELIVERED&limit=100`, {
        headers: { 'x-api-key': sandbox.apiKey },
      })
    ).json()) as { data: { items: { id: string }[] } };
    expect(log.data.items.map((l: { id: string }) => l.id)).toContain(failedLog);
  },
};

let run: (line: string) => Promise<Ran>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-readme-live-'));
  sandbox = await startSandbox({ clock: 'manual' });
  live = await startLiveService(dir, sandbox.baseUrl, { [LIVE_KEY]: sandbox.apiKey });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(sandbox.baseUrl + path, {
      method,
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return ((await response.json()) as { data: any }).data;
  };
  // Something for support to find there: a held payment, and a delivery that failed.
  const wallet = await api('POST', '/v1/wallets', {
    customer_reference: 'ada',
    first_name: 'Ada',
    last_name: 'Obi',
    email: 'ada@example.com',
  });
  await api('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 1 });
  await api('POST', '/sandbox/inbound-transfers', {
    account_number: wallet.account_number,
    amount: 70000,
    narration: 'asdfgh',
  });
  await sandbox.advance('1s');
  heldItem = (await api('GET', '/v1/suspense?status=PENDING')).items[0].id;
  failedLog = (await api('GET', '/v1/webhook-logs?status=FAILED')).items[0].id;

  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'ledger'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'ledger'), 0o755);
  const work = join(dir, 'work');
  mkdirSync(work);
  const env = cleanEnv({
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(dir, 'config'),
    NODE_EXTRA_CA_CERTS: live.caFile,
    STAGING_KEY: sandbox.apiKey,
    PROD_LEDGER_KEY: LIVE_KEY,
  });
  run = async (line) => {
    const assigned = /^([A-Z]+)=\$\(/.exec(line)?.[1];
    const pasted = line.replaceAll(STAGING, sandbox.baseUrl).replaceAll(PROD, live.url);
    const script =
      `set -a; [ -f state.sh ] && . ./state.sh\n${pasted}\nstatus=$?\nexport -p > state.sh\n` +
      `${assigned ? `printf '%s' "$${assigned}" > var.txt\n` : ''}exit $status`;
    const r = await execa('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: work,
      env,
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      timeout: 60_000,
    });
    if (assigned) vars[assigned] = readFileSync(join(work, 'var.txt'), 'utf8');
    return { stdout: String(r.stdout), stderr: String(r.stderr), code: r.exitCode ?? -1 };
  };
});
afterAll(async () => {
  await live?.close();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('README: against a shared or live service', () => {
  it('has a check for every commented line and a line for every check', () => {
    expect(LINES.length).toBeGreaterThan(5);
    const commented = LINES.filter((l) => /\s#\s/.test(l)).map(commandOf);
    expect(commented.sort()).toEqual(Object.keys(CHECKS).sort());
  });

  it('runs as written, each comment true', async () => {
    for (const line of LINES) {
      const before = live.requests.length;
      const result = await run(line);
      const check = CHECKS[commandOf(line)];
      if (check) {
        // What this line sent, for the checks that look at the stand-in's record.
        const sent = live.requests.slice(before);
        live.requests.splice(0, live.requests.length, ...sent);
        await check(result);
      } else expect([line, result.code, result.stderr]).toEqual([line, 0, '']);
    }
  });
});
