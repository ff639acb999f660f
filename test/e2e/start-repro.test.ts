import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from '../helpers/cli.js';

/** `sandbox start`'s reproducibility flags through the built binary: usage errors, keys, seeds from the environment. */
const cli = useCli('each');
const KEY_1 = `svc_test_${'One'.padEnd(32, '1')}`;
const KEY_2 = `svc_test_${'Two'.padEnd(32, '2')}`;
const SECRET_1 = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const SECRET_2 = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;

describe('sandbox start --seed, --clock, --clock-start, --api-key, --webhook-secret, --snapshot', () => {
  it('refuses malformed values as usage errors (exit 2) before starting anything, detached or not', async () => {
    const cases: [string[], string][] = [
      [['--seed', 'seven'], 'Error [USAGE]: --seed "seven" must be a whole number from 0 to 9007199254740991\n'],
      [
        ['--clock', 'real', '--clock-start', '2026-01-01T00:00:00Z'],
        'Error [USAGE]: --clock-start needs a manual clock: leave out --clock real\n',
      ],
      [
        ['--clock-start', 'yesterday'],
        'Error [USAGE]: --clock-start "yesterday" must be an ISO 8601 instant with a time zone, like 2026-01-01T00:00:00Z\n',
      ],
      [
        ['--clock-start', '9999-12-31T00:00:00Z'],
        'Error [USAGE]: --clock-start "9999-12-31T00:00:00Z" must be no later than 9999-01-01T00:00:00.000Z\n',
      ],
      [
        ['--api-key', 'svc_live_0123456789012345678901234567890a'],
        'Error [USAGE]: --api-key must be svc_test_ followed by 32 letters and digits (a live key is never accepted)\n',
      ],
      [
        ['--webhook-secret', 'whsec_tooshort'],
        'Error [USAGE]: --webhook-secret must be whsec_ followed by the base64 of 24 to 64 bytes (the Standard Webhooks format)\n',
      ],
      [
        ['--webhook-secret', Buffer.alloc(32).toString('base64')],
        'Error [USAGE]: --webhook-secret must be whsec_ followed by the base64 of 24 to 64 bytes (the Standard Webhooks format)\n',
      ],
      [
        ['--snapshot', '.hidden'],
        'Error [USAGE]: --snapshot ".hidden" must be 1 to 64 letters, digits, dots, dashes or underscores, ' +
          'starting with a letter or digit, or is a path with a /\n',
      ],
    ];
    for (const [flags, stderr] of cases) {
      for (const detach of [[], ['--detach']]) {
        const r = await cli.run(['sandbox', 'start', '--memory', '--port', '0', ...detach, ...flags]);
        expect([flags, r.exitCode, r.stderr]).toEqual([flags, 2, stderr]);
      }
    }
    const clock = await cli.run(['sandbox', 'start', '--memory', '--clock', 'sometimes']);
    expect([clock.exitCode, clock.stderr]).toEqual([
      2,
      expect.stringMatching(/^Error \[USAGE\]: --clock must be real or manual/),
    ]);
  });

  it('takes the seed from LEDGER_SEED, starts the clock where told, and a missing snapshot is NOT_FOUND (exit 1)', async () => {
    const started = await cli.run(
      ['sandbox', 'start', '--detach', '--memory', '--port', '0', '--clock-start', '2030-05-01T12:00:00+01:00'],
      { env: { LEDGER_SEED: '42' } },
    );
    expect(started.exitCode, started.stderr).toBe(0);
    expect(await cli.json(['sandbox', 'clock'])).toEqual({ now: '2030-05-01T11:00:00.000Z', offset_seconds: 0 });
    const wallet = await cli.json([
      'wallets',
      'create',
      '--customer-reference',
      'seeded',
      '--first-name',
      'S',
      '--last-name',
      'D',
      '--email',
      's@d.ng',
    ]);
    await cli.run(['sandbox', 'stop']);
    await cli.run([
      'sandbox',
      'start',
      '--detach',
      '--memory',
      '--port',
      '0',
      '--seed',
      '42',
      '--clock-start',
      '2030-05-01T11:00:00Z',
    ]);
    expect(
      (
        await cli.json([
          'wallets',
          'create',
          '--customer-reference',
          'seeded',
          '--first-name',
          'S',
          '--last-name',
          'D',
          '--email',
          's@d.ng',
        ])
      ).id,
    ).toBe(wallet.id);
    await cli.run(['sandbox', 'stop']);

    const missing = await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--snapshot', 'nowhere']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      1,
      expect.stringMatching(/^Error \[NOT_FOUND\]: snapshot "nowhere" not found in \S+snapshots\n$/),
    ]);
  });

  it('--api-key fixes the key on a new database and replaces it on an existing one; a key rotated away can come back', async () => {
    const db = join(cli.dir, 'keys.db');
    const start = async (key: string) => {
      const r = await cli.run(['sandbox', 'start', '--detach', '--json', '--port', '0', '--db', db, '--api-key', key]);
      expect(r.exitCode, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect((await start(KEY_1)).api_key).toBe(KEY_1);
    const owner = (await cli.json(['sandbox', 'keys'])).developer_id;
    await cli.run(['sandbox', 'stop']);
    const second = await start(KEY_2);
    expect(second.api_key).toBe(KEY_2);
    expect(
      (await cli.run(['sandbox', 'keys'], { env: { LEDGER_BASE_URL: second.base_url, LEDGER_API_KEY: KEY_1 } }))
        .exitCode,
    ).toBe(1);
    expect((await cli.json(['sandbox', 'keys'])).developer_id).toBe(owner);
    await cli.run(['sandbox', 'stop']);
    expect((await start(KEY_1)).api_key).toBe(KEY_1);
    expect((await cli.json(['sandbox', 'keys'])).developer_id).toBe(owner);
    // The key never reaches the detached sandbox's command line, where `ps` would show it.
    const state = await cli.json(['sandbox', 'status']);
    const { execa } = await import('execa');
    const ps = await execa('ps', ['-o', 'args=', '-p', String(state.pid)], { reject: false });
    expect(ps.stdout).toContain('sandbox start');
    expect(ps.stdout).not.toContain(KEY_1);
  });

  it("--webhook-secret fixes the owner's secret under a seed, replaces it on an existing database, and never shows in ps", async () => {
    // LEDGER_SANDBOX_WEBHOOK_SECRET does the same.
    const db = join(cli.dir, 'secrets.db');
    const start = async (flags: string[], env: Record<string, string> = {}) => {
      const r = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--seed', '7', ...flags], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    const secret = async () => (await cli.json(['webhooks', 'secret'])).secret;
    await start(['--db', db, '--webhook-secret', SECRET_1]);
    expect(await secret()).toBe(SECRET_1);
    const state = await cli.json(['sandbox', 'status']);
    const { execa } = await import('execa');
    const ps = await execa('ps', ['-o', 'args=', '-p', String(state.pid)], { reject: false });
    expect(ps.stdout).toContain('sandbox start');
    expect(ps.stdout).not.toContain(SECRET_1);
    const rotated = (await cli.json(['webhooks', 'secret', 'rotate'])).secret;
    expect(rotated).not.toBe(SECRET_1);
    await cli.run(['sandbox', 'stop']);
    // A restart without the flag keeps what the database holds; with it, the secret given is the only one that signs.
    await start(['--db', db]);
    expect(await secret()).toBe(rotated);
    await cli.run(['sandbox', 'stop']);
    await start(['--db', db], { LEDGER_SANDBOX_WEBHOOK_SECRET: SECRET_2 });
    expect(await cli.json(['webhooks', 'secret'])).toMatchObject({
      secret: SECRET_2,
      previous_secret_valid_until: null,
    });
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    await cli.run(['sandbox', 'stop']);

    // Without the flag, the same seed gives the same ids but another secret.
    const ids: string[] = [];
    const secrets: string[] = [];
    for (let run = 0; run < 2; run++) {
      await start(['--memory']);
      ids.push((await cli.json(['sandbox', 'keys'])).developer_id);
      secrets.push(await secret());
      await cli.run(['sandbox', 'stop']);
    }
    expect(ids[1]).toBe(ids[0]);
    expect(secrets[1]).not.toBe(secrets[0]);
  });

  it('developers create warns on stderr that a seeded sandbox is not one to share; its --json output is unchanged', async () => {
    await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--seed', '7']);
    const seeded = await cli.run(['sandbox', 'developers', 'create', 'Acme Pay', '--json']);
    expect(seeded.exitCode).toBe(0);
    expect(Object.keys(JSON.parse(seeded.stdout))).toEqual(['developer_id', 'business_name', 'api_key', 'created_at']);
    expect(seeded.stderr).toBe(
      'Warning: this sandbox is seeded (--seed): ' +
        "anyone who knows the seed can derive every id and account number in it, this developer's too. " +
        "A seeded sandbox is for one team's own CI job: do not share it with other developers.\n",
    );
    const quiet = await cli.run(['sandbox', 'developers', 'create', 'Quiet Pay', '--quiet']);
    expect([quiet.exitCode, quiet.stdout]).toEqual([0, expect.stringMatching(/^svc_test_\w{32}\n$/)]);
    expect(quiet.stderr).toMatch(/^Warning: this sandbox is seeded/);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    await cli.run(['sandbox', 'stop']);
    await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0']);
    const plain = await cli.run(['sandbox', 'developers', 'create', 'Acme Pay', '--json']);
    expect([plain.exitCode, plain.stderr]).toEqual([0, '']);
    await cli.run(['sandbox', 'stop']);
  });
});
