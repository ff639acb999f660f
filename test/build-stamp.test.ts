import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm test` builds only when dist/ was not built from the same inputs (scripts/build-stamp.js):
 * `npm ci` has just built it, and CI must stay under 15 minutes. Run on a small copy of the tree, so
 * the real dist/ is never touched.
 */
const SCRIPT = resolve(import.meta.dirname, '../scripts/build-stamp.js');
let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(): (mode: string) => number {
  root = mkdtempSync(join(tmpdir(), 'ledger-stamp-'));
  for (const dir of ['scripts', 'src/engine', 'examples', 'bin', 'dist'])
    mkdirSync(join(root, dir), { recursive: true });
  cpSync(SCRIPT, join(root, 'scripts', 'build-stamp.js'));
  writeFileSync(join(root, 'src', 'engine', 'money.ts'), 'export const KOBO = 100;\n');
  writeFileSync(join(root, 'package.json'), '{"name":"x"}\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  return (mode) => {
    try {
      execFileSync(process.execPath, [join(root, 'scripts', 'build-stamp.js'), mode], { stdio: 'pipe' });
      return 0;
    } catch (error) {
      return (error as { status: number }).status;
    }
  };
}

describe('the build stamp', () => {
  it('lets a build be skipped only for the inputs it was made from: a source, the lockfile, a new file or a cut-off build each call for a build', () => {
    const stamp = tree();
    expect(stamp('check')).toBe(1); // never built
    expect(stamp('write')).toBe(0);
    expect(stamp('check')).toBe(0);

    writeFileSync(join(root, 'src', 'engine', 'money.ts'), 'export const KOBO = 1000;\n');
    expect(stamp('check')).toBe(1);
    expect(stamp('write')).toBe(0);
    expect(stamp('check')).toBe(0);

    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
    expect(stamp('check')).toBe(1);
    expect(stamp('write')).toBe(0);

    writeFileSync(join(root, 'src', 'engine', 'fees.ts'), 'export const FEE = 1000;\n');
    expect(stamp('check')).toBe(1);
    expect(stamp('write')).toBe(0);
    expect(stamp('check')).toBe(0);

    // A build clears the stamp first: one cut off halfway leaves none, and the next test run builds.
    expect(stamp('clear')).toBe(0);
    expect(stamp('check')).toBe(1);
    expect(stamp('nonsense')).toBe(2);
  });
});
