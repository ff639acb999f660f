import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFileOf, cacheRejected, loadBundle, writeCodeCache } from '../src/main/code-cache.js';

/** A CommonJS bundle as rolldown writes one: externals through `require`, its file through `__filename`. */
const BUNDLE = `"use strict";
const path = require("node:path");
const helper = require("./helper.js");
function total(items) { return items.reduce((sum, item) => sum + helper.kobo(item), 0); }
exports.answer = total([1, 2, 3]);
exports.where = path.basename(__filename) + " in " + path.basename(__dirname);
exports.late = () => total([40, 2]);
`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of a bundle, with `source` for its code (a new file name each time: V8 keeps what it compiled per source and name). */
function bundleFile(source = BUNDLE): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-code-cache-'));
  dirs.push(dir);
  const file = join(dir, 'sample.bundle.cjs');
  writeFileSync(file, source);
  return file;
}

const externals = { './helper.js': { kobo: (naira: number) => naira * 100 } };

function expectRuns(file: string, rejected: boolean | undefined): void {
  const { exports, cacheRejected: refused } = loadBundle(file, externals);
  expect(exports.answer).toBe(600);
  expect(exports.where).toMatch(/^sample\.bundle\.cjs in ledger-code-cache-/);
  expect((exports.late as () => number)()).toBe(4200);
  expect(refused).toBe(rejected);
  expect(cacheRejected(file)).toBe(rejected);
}

describe('a bundle run with its code cache', () => {
  it('runs without a cache, writes one after running, and takes it in the next load', () => {
    const file = bundleFile();
    expect(cacheRejected(file)).toBeNull();
    expectRuns(file, undefined);
    expect(writeCodeCache(file)).toBeGreaterThan(0);
    expect(readFileSync(cacheFileOf(file)).length).toBeGreaterThan(0);
    expectRuns(file, false);
  });

  it('runs from its source when the cache is corrupt, cut short, or made for another bundle', () => {
    const made = bundleFile();
    loadBundle(made, externals);
    writeCodeCache(made);
    const good = readFileSync(cacheFileOf(made));

    // A byte of V8's own header, of its data (V8 itself would crash on some of these), of the digest.
    for (const at of [40, 72, good.length - 10, 5]) {
      const corrupt = bundleFile();
      const bad = Buffer.from(good);
      bad[at]! ^= 0xff;
      writeFileSync(cacheFileOf(corrupt), bad);
      expectRuns(corrupt, true);
    }

    const short = bundleFile();
    writeFileSync(cacheFileOf(short), good.subarray(0, 20));
    expectRuns(short, true);

    // The same length of source, another program: V8 would take the cache (it checks the length).
    const edited = bundleFile(BUNDLE.replace('[1, 2, 3]', '[1, 2, 4]'));
    writeFileSync(cacheFileOf(edited), good);
    const { exports } = loadBundle(edited, externals);
    expect(exports.answer).toBe(700);
    expect(cacheRejected(edited)).toBe(true);

    const foreign = bundleFile();
    const other = bundleFile(`${BUNDLE}exports.extra = 1;\n`);
    loadBundle(other, externals);
    writeCodeCache(other);
    writeFileSync(cacheFileOf(foreign), readFileSync(cacheFileOf(other)));
    expectRuns(foreign, true);
  });

  it('refuses to write the cache of a bundle it did not load', () => {
    expect(() => writeCodeCache(bundleFile())).toThrow(/was not loaded by loadBundle/);
  });
});
