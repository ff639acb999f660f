import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandboxCli, createWalletWithCli } from '../helpers/cli.js';
import { type LiveService, startLiveService } from '../helpers/live-service.js';
import { terminal } from '../helpers/terminal.js';

/**
 * A live key cannot move money by accident: against a stand-in live service (HTTPS, the seed's /v1
 * only, every request recorded, in front of a sandbox), a command without --live sends nothing,
 * every write needs a typed confirmation at a terminal or --live --yes in a script, and commands of
 * the sandbox alone are refused before any request.
 */
const cli = useSandboxCli({ clock: 'manual' });
const LIVE_KEY = 'svc_live_0123456789abcdefghijklmnopqrstuv';
let live: LiveService;
let dir: string;
let ada: string;
let bola: string;
let bolaAccount: string;

/** The environment of a command run against the live service with its live key. */
const liveEnv = (more: Record<string, string> = {}) => ({
  LEDGER_BASE_URL: live.url,
  LEDGER_API_KEY: LIVE_KEY,
  NODE_EXTRA_CA_CERTS: live.caFile,
  XDG_CONFIG_HOME: join(dir, 'config'),
  ...more,
});
const writes = () => live.requests.filter((r) => r.method !== 'GET');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-live-'));
  live = await startLiveService(dir, cli.sandbox.baseUrl, { [LIVE_KEY]: cli.sandbox.apiKey });
  ada = await createWalletWithCli(cli, 'ada');
  bola = await createWalletWithCli(cli, 'bola', { first: 'Bola' });
  bolaAccount = (await cli.json(['wallets', 'get', bola])).account_number;
  await cli.run(['credit', ada, '500000', '--narration', 'salary for May']);
});
afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a live key needs --live on every command', () => {
  it('refuses before sending anything, and says why', async () => {
    live.requests.length = 0;
    const run = await cli.run(['wallets', 'get', ada], { env: liveEnv() });
    expect([run.exitCode, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toBe(
      `Error [LIVE_KEY]: the API key is a live key (svc_live_): ` +
        `${live.url} (from LEDGER_BASE_URL) moves real money, so every command against it needs --live; nothing was sent\n`,
    );
    expect(live.requests).toEqual([]);
  });

  it('runs with --live, after the command name or before it', async () => {
    const after = await cli.run(['wallets', 'get', ada, '--live', '--json'], { env: liveEnv() });
    const before = await cli.run(['--live', 'wallets', 'get', ada, '--json'], { env: liveEnv() });
    expect([after.exitCode, before.exitCode, after.stderr]).toEqual([0, 0, '']);
    expect(JSON.parse(after.stdout)).toMatchObject({ id: ada, balance: 500000 });
    expect(before.stdout).toBe(after.stdout);
    expect(live.requests.at(-1)).toEqual({ method: 'GET', path: `/v1/wallets/${ada}`, key: LIVE_KEY });
  });

  it('a profile marked live needs it too, whatever its key', async () => {
    mkdirSync(join(dir, 'config', 'ledger'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config', 'ledger', 'config.toml'),
      `[profiles.prod]\nbase_url = "${cli.sandbox.baseUrl}"\napi_key = "${cli.sandbox.apiKey}"\nlive = true\n`,
      { mode: 0o600 },
    );
    const run = await cli.run(['wallets', 'get', ada, '--profile', 'prod'], {
      env: { XDG_CONFIG_HOME: join(dir, 'config'), LEDGER_BASE_URL: '', LEDGER_API_KEY: '' },
    });
    expect([run.exitCode, run.stderr]).toEqual([
      2,
      `Error [LIVE_KEY]: profile prod is live: ${cli.sandbox.baseUrl} (from profile prod (--profile)) ` +
        `moves real money, so every command against it needs --live; nothing was sent\n`,
    ]);
    const ok = await cli.run(['--profile', 'prod', '--live', 'wallets', 'get', ada, '--json'], {
      env: { XDG_CONFIG_HOME: join(dir, 'config'), LEDGER_BASE_URL: '', LEDGER_API_KEY: '' },
    });
    expect([ok.exitCode, JSON.parse(ok.stdout).id]).toEqual([0, ada]);
  });
});

describe('writes on a live service are confirmed', () => {
  it('in a script, a transfer needs --live --yes; without --yes nothing is written', async () => {
    live.requests.length = 0;
    const refused = await cli.run(['transfer', ada, bolaAccount, '150000', '--live'], { env: liveEnv() });
    expect([refused.exitCode, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(
      new RegExp(
        /^Error \[LIVE_CONFIRMATION_REQUIRED\]: /.source +
          /This sends POST \/v1\/wallets\/[0-9a-f-]+\/transfer to the live service .* /.source +
          /On a live service that needs a typed confirmation at a terminal, /.source +
          /or --live --yes in a script; nothing was sent\n$/.source,
      ),
    );
    expect(writes()).toEqual([]);
    expect((await cli.json(['wallets', 'get', bola])).balance).toBe(0);

    const sent = await cli.run(['transfer', ada, bolaAccount, '150000', '--live', '--yes', '--json'], {
      env: liveEnv(),
    });
    expect([sent.exitCode, sent.stderr]).toEqual([0, '']);
    expect(writes().map((r) => r.path)).toEqual([`/v1/wallets/${ada}/transfer`]);
    expect((await cli.json(['wallets', 'get', bola])).balance).toBe(150000);
  });

  it('retry --all-failed asks once for every delivery, and sends none without --yes', async () => {
    await cli.run(['sandbox', 'receiver', 'fail', '--status', '500', '--times', '5']);
    await cli.run(['credit', bola, '1000']);
    await cli.run(['credit', bola, '2000']);
    await cli.json(['sandbox', 'clock', 'advance', '1s']);
    const failed = (await cli.json(['webhooks', 'list', '--status', 'FAILED'])).items.length;
    expect(failed).toBeGreaterThanOrEqual(2);
    live.requests.length = 0;
    const refused = await cli.run(['webhooks', 'retry', '--all-failed', '--live'], { env: liveEnv() });
    expect([refused.exitCode, refused.stderr.split(']')[0]]).toEqual([2, 'Error [LIVE_CONFIRMATION_REQUIRED']);
    expect(writes()).toEqual([]);
    await cli.run(['sandbox', 'receiver', 'reset']);
    const retried = await cli.run(['webhooks', 'retry', '--all-failed', '--live', '--yes', '--json'], {
      env: liveEnv(),
    });
    expect(retried.exitCode).toBe(0);
    expect(JSON.parse(retried.stdout).items.every((l: { status: string }) => l.status === 'DELIVERED')).toBe(true);
    expect(writes()).toHaveLength(failed);
  });

  it('at a terminal, a payout shows whose money goes where and asks for the amount to be typed', async () => {
    live.requests.length = 0;
    const env = liveEnv();
    const run = async (answer: string) => {
      const term = await terminal(['transfer', ada, '0123456785', '150000', '--bank', '058', '--live'], {
        cwd: dir,
        env,
      });
      try {
        const screen = await term.waitFor(/Type the amount in kobo, 150000, to confirm/);
        await term.type(answer);
        await term.keys('Enter');
        return { screen, exitCode: await term.exitCode(), after: await term.screen() };
      } finally {
        await term.close();
      }
    };
    const wrong = await run('1500');
    expect(wrong.screen.split('\n')[0]).toBe(`→ LEDGER_BASE_URL (${live.url}) · LIVE`);
    expect(wrong.screen).toMatch(/From {4}Ada Obi · \d{10}/);
    expect(wrong.screen).toContain('Send ₦1,500.00 from Ada Obi to 0123456785 at Guaranty Trust Bank (058)?');
    expect(wrong.exitCode).toBe(2);
    expect(wrong.after).toContain('Error [NOT_CONFIRMED]: you typed "1500", not 150000: cancelled, nothing was sent');
    expect(writes().map((r) => r.path)).toEqual(['/v1/banks/resolve']);
    const before = (await cli.json(['wallets', 'get', ada])).balance;
    const right = await run('150000');
    expect(right.exitCode).toBe(0);
    expect(writes().map((r) => r.path)).toEqual([
      '/v1/banks/resolve',
      '/v1/banks/resolve',
      `/v1/wallets/${ada}/transfer`,
    ]);
    expect((await cli.json(['wallets', 'get', ada])).balance).toBe(before - 150000 - 1000);
  });
});

describe('commands of the sandbox alone', () => {
  it('are refused with SANDBOX_ONLY before any request, with --live or without', async () => {
    live.requests.length = 0;
    const scenario = join(import.meta.dirname, '../../examples/scenarios/quickstart.yaml');
    for (const args of [
      ['credit', bolaAccount, '1000', '--live'],
      ['credit', bolaAccount, '1000'],
      ['sandbox', 'reset', '--live', '--yes'],
      ['sandbox', 'audit'],
      ['sandbox', 'clock', 'advance', '1h', '--live'],
      ['scenario', 'run', scenario, '--base-url', live.url],
    ]) {
      const run = await cli.run(args, { env: liveEnv() });
      expect([args.join(' '), run.exitCode, run.stderr.split(': ')[0]]).toEqual([
        args.join(' '),
        2,
        'Error [SANDBOX_ONLY]',
      ]);
      expect(run.stderr).toContain(`works only against a ledger sandbox, and ${live.url} (from`);
    }
    expect(live.requests).toEqual([]);
  });

  it('sandbox status still answers: it is how anyone finds out what is there', async () => {
    const run = await cli.run(['sandbox', 'status', '--live'], { env: liveEnv() });
    expect(run.exitCode).not.toBe(2);
    expect(live.requests.every((r) => r.key === undefined)).toBe(true);
  });
});

describe('a non-loopback http:// URL', () => {
  it('is refused before any connection; --insecure lets it through for a test server', async () => {
    const run = await cli.run(['wallets', 'get', ada], {
      env: { LEDGER_BASE_URL: 'http://10.255.255.1:4010', LEDGER_API_KEY: cli.sandbox.apiKey },
    });
    expect([run.exitCode, run.stderr]).toEqual([
      2,
      'Error [INSECURE_URL]: base URL http://10.255.255.1:4010 (from LEDGER_BASE_URL) is http:// on a network: ' +
        'live and remote services are https://, so keys never travel in clear text; ' +
        'for a test server on a trusted network only, add --insecure\n',
    ]);
  });
});
