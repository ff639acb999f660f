import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { closedPort, useCli } from '../helpers/cli.js';

/**
 * `ledger scenario run` on a folder that keeps deliberately malformed fixtures next to good
 * scenarios (--exclude, .ledgerignore), and on a runner that allows only some ports (--port).
 */

const cli = useCli('each');

const GOOD = 'name: banks are listed\nsteps:\n  - run: banks list\n';
/** Malformed, and not UTF-8 either: a run that reads it cannot pass. */
const BAD = Buffer.concat([
  Buffer.from('name: [unclosed\nsteps: \xff\n', 'latin1'),
  Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
]);

/** suite/good.yaml, suite/broken/fixture.yaml and suite/neg.bad.yaml, the last two malformed and (but for root) unreadable. */
function suite(): string {
  const dir = join(cli.dir, 'suite');
  mkdirSync(join(dir, 'broken'), { recursive: true });
  writeFileSync(join(dir, 'good.yaml'), GOOD);
  for (const bad of ['broken/fixture.yaml', 'neg.bad.yaml']) {
    writeFileSync(join(dir, bad), BAD);
    chmodSync(join(dir, bad), 0o000);
  }
  return dir;
}

describe('scenario run: files passed over', () => {
  beforeEach(() => {
    suite();
  });

  it('without --exclude, a malformed file below the folder stops the run before anything runs (exit 2)', async () => {
    const run = await cli.run(['scenario', 'run', 'suite']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Error \[INVALID_SCENARIO\]: suite\/broken\/fixture\.yaml:\d+:\d+: /m);
    expect(run.stderr).toMatch(/^Error \[INVALID_SCENARIO\]: suite\/neg\.bad\.yaml:\d+:\d+: /m);
  });

  it('--exclude (repeatable, by the path from the folder) passes over those files unread, and the good one runs and passes', async () => {
    const run = await cli.run([
      'scenario',
      'run',
      'suite',
      '--exclude',
      'broken/**',
      '--exclude',
      '*.bad.yaml',
      '--reporter',
      'tap',
    ]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('ok 1 - banks are listed');
    expect(run.stdout).not.toMatch(/fixture|neg\.bad/);
  });

  it('a glob without a / names a file at any depth, and one that names a folder takes what is below it', async () => {
    const run = await cli.run(['scenario', 'run', 'suite', '--exclude', 'broken', '--exclude', '*.bad.yaml']);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    const one = await cli.run(['scenario', 'run', 'suite', '--exclude', 'broken/**']);
    expect(one.exitCode).toBe(2);
    expect(one.stderr).not.toContain('fixture');
  });

  it('.ledgerignore in the folder does the same: one glob a line, # comments and blank lines ignored', async () => {
    writeFileSync(join(cli.dir, 'suite', '.ledgerignore'), '# negative-test fixtures\nbroken/**\n\n   \n*.bad.yaml\n');
    const run = await cli.run(['scenario', 'run', 'suite', '--reporter', 'tap']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('ok 1 - banks are listed');
  });

  it('a folder with nothing left, or an empty --exclude, is a usage error (exit 2)', async () => {
    rmSync(join(cli.dir, 'suite', 'good.yaml'));
    const none = await cli.run(['scenario', 'run', 'suite', '--exclude', '**/*.yaml']);
    expect([none.exitCode, none.stderr]).toEqual([
      2,
      'Error [USAGE]: suite: no scenario files (.yaml, .yml or .json) in this directory but those that --exclude or its .ledgerignore names\n',
    ]);
    const empty = await cli.run(['scenario', 'run', 'suite', '--exclude', '']);
    expect([empty.exitCode, empty.stderr]).toEqual([
      2,
      "Error [USAGE]: --exclude is empty: give a glob (--exclude 'broken/**')\n",
    ]);
  });
});

describe('scenario run --port', () => {
  it("listens there: the webhook endpoint of the run's sandbox, and its receiver, are on that port", async () => {
    const port = await closedPort();
    writeFileSync(
      join(cli.dir, 'port.yaml'),
      [
        'name: on the port given',
        'steps:',
        '  - run: webhooks endpoint',
        `    expect: { data.url: { matches: "^http://127\\\\.0\\\\.0\\\\.1:${port}/sandbox/receiver" } }`,
        '  - run: wallets create --customer-reference ada --first-name Ada --last-name Obi --email ada@example.com',
        '    save: { ADA: data.id }',
        '  - run: credit ${ADA} 1000 --narration salary',
        '  - advance: 1s',
        '  - expect_webhook: ledger.credit',
        '    match: { data.amount: 1000 }',
        '',
      ].join('\n'),
    );
    const run = await cli.run(['scenario', 'run', 'port.yaml', '--port', String(port), '--reporter', 'tap']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('ok 1 - on the port given');
  });

  it.each(['65536', '-1', 'abc', '1.5'])('--port %s is a usage error (exit 2)', async (value) => {
    writeFileSync(join(cli.dir, 'good.yaml'), GOOD);
    const run = await cli.run(['scenario', 'run', 'good.yaml', `--port=${value}`]);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      2,
      '',
      `Error [USAGE]: --port "${value}" must be a number from 0 to 65535 (0: one the system picks)\n`,
    ]);
  });

  it('--port with --base-url is a usage error (exit 2): the sandbox there has its own port', async () => {
    writeFileSync(join(cli.dir, 'good.yaml'), GOOD);
    const run = await cli.run(['scenario', 'run', 'good.yaml', '--port', '4020', '--base-url', 'http://127.0.0.1:9']);
    expect([run.exitCode, run.stderr]).toEqual([
      2,
      'Error [USAGE]: --port has no effect with --base-url: the sandbox there listens where it was started (`ledger sandbox start --port`)\n',
    ]);
  });
});
