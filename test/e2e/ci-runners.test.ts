import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCli } from '../helpers/cli.js';

/** What a CI runner's environment does to `ledger`: its working directory, its homes, its temporary directory. */
describe('a state directory the runner will not let ledger write', () => {
  it('seen: `sandbox start` where .ledger/ cannot be made said Error [INTERNAL] and a syscall; now it names the directory and the way out', async () => {
    const cli = createCli();
    try {
      writeFileSync(join(cli.dir, '.ledger'), 'a file where the state directory goes\n');
      for (const args of [['sandbox', 'start', '--port', '0'], ['sandbox', 'start', '--detach', '--port', '0']]) {
        const r = await cli.run(args);
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([
          1,
          '',
          `Error [STATE_DIR_UNWRITABLE]: cannot write the sandbox's state directory ${join(cli.dir, '.ledger')} (EEXIST: a file is in its way): run from a directory you can write to, or set LEDGER_HOME to one\n`,
        ]);
      }
      // A relative LEDGER_HOME is taken from the working directory, and the message gives it whole.
      const relative = await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0'], { env: { LEDGER_HOME: '.ledger/home' } });
      expect([relative.exitCode, relative.stderr]).toEqual([1, expect.stringContaining(`state directory ${join(cli.dir, '.ledger', 'home')} (ENOTDIR: a file is in its way)`)]);
    } finally {
      cli.cleanup();
    }
  });
});
