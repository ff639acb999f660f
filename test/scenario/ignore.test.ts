import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { excluder, ignoredIn } from '../../src/scenario/ignore.js';

describe('scenario run --exclude globs', () => {
  const cases: [string, string, boolean][] = [
    ['*.bad.yaml', 'neg.bad.yaml', true],
    ['*.bad.yaml', 'deep/down/neg.bad.yaml', true],
    ['*.bad.yaml', 'neg.bad.yml', false],
    ['broken/**', 'broken/a.yaml', true],
    ['broken/**', 'broken/x/y/a.yaml', true],
    ['broken/**', 'other/broken/a.yaml', false],
    ['broken', 'other/broken/a.yaml', true],
    ['broken/', 'broken/a.yaml', true],
    ['**/fixtures/*.json', 'fixtures/a.json', true],
    ['**/fixtures/*.json', 'x/y/fixtures/a.json', true],
    ['**/fixtures/*.json', 'x/y/fixtures/sub/a.json', false],
    ['case?.yaml', 'case1.yaml', true],
    ['case?.yaml', 'case12.yaml', false],
    ['a/*.yaml', 'a/b/c.yaml', false],
    ['a+b(1).yaml', 'a+b(1).yaml', true],
    ['a.yaml', 'aXyaml', false],
  ];
  it.each(cases)('%s on %s: %s', (glob, path, excluded) => {
    expect(excluder([glob])(path)).toBe(excluded);
  });

  it('.ledgerignore: one glob a line; blank lines and # comments do not count; none when there is no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerignore-'));
    try {
      expect(ignoredIn(dir)).toEqual([]);
      writeFileSync(join(dir, '.ledgerignore'), '# fixtures\r\nbroken/**\n\n   \n  *.bad.yaml  \n');
      expect(ignoredIn(dir)).toEqual(['broken/**', '*.bad.yaml']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
