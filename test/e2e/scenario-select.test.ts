import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCli } from '../helpers/cli.js';

/**
 * `ledger scenario run` on a folder that keeps deliberately malformed fixtures next to good
 * scenarios (--exclude, .ledgerignore).
 */

const cli = useCli('each');

const GOOD = 'name: banks are listed\nsteps:\n  - run: banks list\n';
/** Malformed, and not UTF-8 either: a run that reads it cannot pass. */
const BAD = Buffer.concat([Buffer.from('name: [unclosed\nsteps: \xff\n', 'latin1'), Buffer.from([0xc3, 0x28, 0xff, 0xfe])]);

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
    const run = await cli.run(['scenario', 'run', 'suite', '--exclude', 'broken/**', '--exclude', '*.bad.yaml', '--reporter', 'tap']);
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
    expect([none.exitCode, none.stderr]).toEqual([2, "Error [USAGE]: suite: no scenario files (.yaml, .yml or .json) in this directory but those that --exclude or its .ledgerignore names\n"]);
    const empty = await cli.run(['scenario', 'run', 'suite', '--exclude', '']);
    expect([empty.exitCode, empty.stderr]).toEqual([2, "Error [USAGE]: --exclude is empty: give a glob (--exclude 'broken/**')\n"]);
  });
});
