import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, createWalletWithCli, useCli, watchOutput } from '../helpers/cli.js';

const cli = useCli('each');

const tail = (args: string[] = []) => {
  const run = execa(process.execPath, [BIN, 'logs', 'tail', '--interval', '0.2', ...args], {
    cwd: cli.dir,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
  });
  return { run, stdout: watchOutput(run.stdout), stderr: watchOutput(run.stderr) };
};

describe('the request log through the built binary', () => {
  it('a refused transfer names its request id; logs list finds it, logs show shows its body, logs tail sees what follows', async () => {
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--seed', '7'])).exitCode).toBe(
      0,
    );
    const wallet = await createWalletWithCli(cli, 'logs');
    const refused = await cli.run(['transfer', wallet, '2222222222', '500000', '--bank', '058']);
    // The developer's second request (the wallet was the first): the same id in every run of a seeded sandbox.
    const id = 'req_00000002';
    expect([refused.exitCode, refused.stderr]).toEqual([
      1,
      `Error [INSUFFICIENT_FUNDS]: insufficient funds: the wallet's balance is 0 kobo, and this needs 501000 kobo (500000 and a fee of 1000) (request ${id})\n`,
    ]);
    const listed = await cli.run(['logs', 'list', '--status', '4xx', '--json']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      items: [
        {
          id,
          method: 'POST',
          path: `/v1/wallets/${wallet}/transfer`,
          status: 422,
          code: 'INSUFFICIENT_FUNDS',
          duration_ms: expect.any(Number),
          idempotency_key: null,
          replayed: false,
          source: 'api',
          // A seeded sandbox's manual clock: the same time in every run.
          at: '2026-01-01T00:00:00.000Z',
          real_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          request_body: '{"destination_account_number":"2222222222","destination_bank_code":"058","amount":500000}',
        },
      ],
      total: 1,
      page: 1,
      limit: 20,
    });
    const shown = await cli.run(['logs', 'show', id]);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain(id);
    expect(shown.stdout).toContain('INSUFFICIENT_FUNDS');
    expect(shown.stdout).toContain('"destination_account_number":"2222222222"');
    const missing = await cli.run(['logs', 'show', 'req_99999999']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      1,
      expect.stringMatching(/^Error \[NOT_FOUND\]: request not found \(request req_\d{8}\)\n$/),
    ]);

    const following = tail(['--json', '--status', '4xx']);
    await following.stderr.waitFor(/Following requests/);
    await cli.run(['wallets', 'get', 'nope-0000']);
    await cli.run(['wallets', 'list']);
    const [line] = await following.stdout.waitFor(/^.*"status":404.*$/m);
    following.run.kill('SIGINT');
    const ended = await following.run;
    expect(ended.exitCode).toBe(0);
    // Only what came after it started, and only what --status lets through: one JSON object a line.
    expect(following.stdout.text().trim().split('\n')).toEqual([line]);
    expect(JSON.parse(line!)).toMatchObject({ method: 'GET', status: 404, code: 'NOT_FOUND', source: 'api' });
  });

  it('logs tail ends with exit 3 when the sandbox stops under it', async () => {
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
    const following = tail();
    await following.stderr.waitFor(/Following requests/);
    expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);
    const ended = await following.run;
    expect([ended.exitCode, String(ended.stderr)]).toEqual([3, expect.stringMatching(/\nError \[UNREACHABLE\]: /)]);
  });
});
