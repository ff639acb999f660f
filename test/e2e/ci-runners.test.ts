import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, createCli } from '../helpers/cli.js';

/**
 * Runs the built binary in `cwd` as a user without root's way past file modes (a runner's own user):
 * as root, through setpriv as nobody; otherwise as is.
 */
function asRunnerUser(cwd: string, args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const [file, ...rest] = asRoot
    ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args]
    : [process.execPath, BIN, ...args];
  return execa(file!, rest, { cwd, env: cleanEnv(), reject: false, extendEnv: false, input: '', timeout: 60_000 });
}

/** What a CI runner's environment does to `ledger`: its working directory, its homes, its temporary directory. */
describe('a state directory the runner will not let ledger write', () => {
  it('`sandbox start` where .ledger/ cannot be made names the directory and the way out', async () => {
    const cli = createCli();
    try {
      writeFileSync(join(cli.dir, '.ledger'), 'a file where the state directory goes\n');
      for (const args of [
        ['sandbox', 'start', '--port', '0'],
        ['sandbox', 'start', '--detach', '--port', '0'],
      ]) {
        const r = await cli.run(args);
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([
          1,
          '',
          `Error [STATE_DIR_UNWRITABLE]: cannot write the sandbox's state directory ${join(cli.dir, '.ledger')} (EEXIST: a file is in its way): ` +
            `run from a directory you can write to, or set LEDGER_HOME to one\n`,
        ]);
      }
      // A relative LEDGER_HOME is taken from the working directory, and the message gives it whole.
      const relative = await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0'], {
        env: { LEDGER_HOME: '.ledger/home' },
      });
      expect([relative.exitCode, relative.stderr]).toEqual([
        1,
        expect.stringContaining(`state directory ${join(cli.dir, '.ledger', 'home')} (ENOTDIR: a file is in its way)`),
      ]);
    } finally {
      cli.cleanup();
    }
  });
});

describe('a report CI reads, in a checkout it cannot write', () => {
  it('refuses --output in a read-only directory before anything runs (exit 2)', async () => {
    // Found only at the end, it would lose the report of every scenario that ran.
    const cli = createCli();
    try {
      writeFileSync(
        join(cli.dir, 'smoke.yaml'),
        'name: smoke\nsteps:\n  - run: wallets list\n    expect: { data.total: 0 }\n',
      );
      chmodSync(cli.dir, 0o555);
      const r = await asRunnerUser(cli.dir, ['scenario', 'run', 'smoke.yaml', '--output', 'report.xml']);
      expect([r.exitCode, r.stdout, r.stderr]).toEqual([
        2,
        '',
        'Error [USAGE]: --output report.xml: cannot write in . (EACCES); name a file in a directory you can write to',
      ]);
      expect(existsSync(join(cli.dir, 'report.xml'))).toBe(false);
    } finally {
      chmodSync(cli.dir, 0o700);
      cli.cleanup();
    }
  });
});

describe('a runner whose TMPDIR is missing', () => {
  it('says TMPDIR once, before anything runs, for a scenario run and for `sandbox start --memory`', async () => {
    const cli = createCli();
    try {
      writeFileSync(
        join(cli.dir, 'smoke.yaml'),
        'name: smoke\nsteps:\n  - run: wallets list\n    expect: { data.total: 0 }\n',
      );
      const missing = join(cli.dir, 'missing');
      const said =
        `Error [TMPDIR_UNUSABLE]: cannot make a folder in TMPDIR (${missing}) (ENOENT): ` +
        `an in-memory sandbox keeps its database there; point TMPDIR at a directory you can write to\n`;
      const run = await cli.run(['scenario', 'run', 'smoke.yaml', '--reporter', 'junit', '--output', 'report.xml'], {
        env: { TMPDIR: missing },
      });
      expect([run.exitCode, run.stdout, run.stderr]).toEqual([1, '', said]);
      expect(existsSync(join(cli.dir, 'report.xml'))).toBe(false);
      const start = await cli.run(['sandbox', 'start', '--memory', '--detach', '--port', '0'], {
        env: { TMPDIR: missing },
      });
      expect([start.exitCode, start.stdout, start.stderr]).toEqual([1, '', said]);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });
});

describe('a runner whose TMPDIR is full', () => {
  // A full file system needs one of its own: a 64 KB tmpfs, which only root may mount (skipped otherwise).
  it('says once that TMPDIR is full, before anything runs', async (ctx) => {
    const cli = createCli();
    const full = join(cli.dir, 'full');
    mkdirSync(full);
    const mounted = await execa('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full], { reject: false });
    try {
      if (mounted.exitCode !== 0) return ctx.skip();
      await execa('dd', ['if=/dev/zero', `of=${join(full, 'fill')}`, 'bs=4k', 'count=100'], { reject: false });
      writeFileSync(
        join(cli.dir, 'smoke.yaml'),
        'name: smoke\nsteps:\n  - run: wallets list\n    expect: { data.total: 0 }\n',
      );
      const run = await cli.run(['scenario', 'run', 'smoke.yaml'], { env: { TMPDIR: full } });
      expect([run.exitCode, run.stdout, run.stderr]).toEqual([
        1,
        '',
        `Error [TMPDIR_UNUSABLE]: TMPDIR (${full}) is full (0 KB free): ` +
          `an in-memory sandbox keeps its database there; point TMPDIR at a directory you can write to\n`,
      ]);
    } finally {
      if (mounted.exitCode === 0) await execa('umount', [full], { reject: false });
      cli.cleanup();
    }
  });
});

describe('a checkout path with odd characters', () => {
  it("in a checkout whose path has a ', a shell reads the export line `sandbox start --detach` prints back whole", async () => {
    const cli = createCli();
    const job = join(cli.dir, "o'brien $HOME ọ̀jọ́ ci");
    mkdirSync(job);
    try {
      const start = await execa(process.execPath, [BIN, 'sandbox', 'start', '--detach', '--memory', '--port', '0'], {
        cwd: job,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
        input: '',
      });
      expect(start.exitCode, start.stderr).toBe(0);
      const line = start.stdout.split('\n').find((l) => l.startsWith('  export LEDGER_HOME='))!;
      const read = await execa('sh', ['-c', `${line}; printf %s "$LEDGER_HOME"`], { reject: false });
      expect([read.exitCode, read.stdout]).toEqual([0, join(job, '.ledger')]);
    } finally {
      await execa(process.execPath, [BIN, 'sandbox', 'stop'], {
        cwd: job,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      });
      cli.cleanup();
    }
  });
});
