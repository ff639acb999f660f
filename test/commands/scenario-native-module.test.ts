import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { scenarioRunIn } from '../helpers/io.js';
import { NATIVE_MODULE_ERROR } from '../helpers/native-module.js';

/**
 * The database driver built for another Node (npm install under Node 20, then nvm to Node 24): the
 * driver module imports, and Node refuses its native part when a database is first opened. Node's
 * own error, as `scenario run` under Node 24 met a better-sqlite3 built for Node 20 (runners.test.ts
 * checks the same text through `sandbox start`'s path). Nothing else of the database is stood in for:
 * no scenario may get as far as needing it.
 */
vi.mock('better-sqlite3', async () => {
  const { builtForAnotherNode } = await import('../helpers/native-module.js');
  return {
    default: class {
      constructor() {
        throw builtForAnotherNode();
      }
    },
  };
});

const EXAMPLES = resolve(import.meta.dirname, '../../examples/scenarios');
const cwd = mkdtempSync(join(tmpdir(), 'ledger-native-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const NATIVE_MODULE = NATIVE_MODULE_ERROR;

const scenarioRun = (args: string[], tty = false) => scenarioRunIn(cwd, args, tty);

describe('scenario run with a database driver built for another Node', () => {
  it.each([
    ['TAP (no terminal)', [EXAMPLES], false],
    ['pretty (a terminal)', [EXAMPLES], true],
    ['JUnit', [EXAMPLES, '--reporter', 'junit'], false],
  ] as const)(
    '%s: one NATIVE_MODULE error naming the fix, exit 1, and no report of scenarios',
    async (_name, args, tty) => {
      const run = await scenarioRun([...args], tty);
      expect(run.stderr).toBe(NATIVE_MODULE);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toBe('');
    },
  );

  it('--output: no report file claims that scenarios ran', async () => {
    const run = await scenarioRun([join(EXAMPLES, 'quickstart.yaml'), '--output', 'report.xml']);
    expect(run.stderr).toBe(NATIVE_MODULE);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(existsSync(join(cwd, 'report.xml'))).toBe(false);
  });

  it.each([
    ['the driver cannot load', () => [join(EXAMPLES, 'quickstart.yaml')], 1],
    ['a file is missing', () => [join(cwd, 'missing.yaml')], 2],
  ] as const)("--output when %s: an earlier run's report is not left in its place", async (_name, files, exitCode) => {
    writeFileSync(join(cwd, 'stale.xml'), '<testsuites tests="5" failures="0"></testsuites>\n');
    const run = await scenarioRun([...files(), '--output', 'stale.xml']);
    expect(run.exitCode).toBe(exitCode);
    expect(existsSync(join(cwd, 'stale.xml'))).toBe(false);
  });

  it('a malformed file is still exit 2 with its line: the files are checked before the driver', async () => {
    const run = await scenarioRun([join(cwd, 'missing.yaml')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).not.toContain('NATIVE_MODULE');
  });
});
