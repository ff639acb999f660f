#!/usr/bin/env node
// The line-width limit, checked by `npm test` after prettier's own check: prettier wraps code at
// 120 columns (.prettierrc.json) but leaves a long string, regular expression or comment as it is,
// so this refuses any line of code over MAX_WIDTH characters. Split such a string where it reads
// naturally (word lists as arrays, messages at a clause), or wrap the comment.
// Usage: node scripts/check-width.js [folder or file ...] (default: the folders of code)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const MAX_WIDTH = 160;
const CODE = /\.(ts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'fixtures']);

function files(path) {
  if (!statSync(path).isDirectory()) return CODE.test(path) ? [path] : [];
  return readdirSync(path)
    .filter((name) => !SKIP.has(name))
    .flatMap((name) => files(join(path, name)));
}

const roots = process.argv.length > 2 ? process.argv.slice(2) : ['src', 'test', 'bench', 'scripts', 'bin'];
const over = [];
for (const file of roots.flatMap(files)) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      // Characters, not UTF-16 units: a naira sign or an emoji is one column here as on screen.
      const width = [...line].length;
      if (width > MAX_WIDTH) over.push(`${relative(process.cwd(), file)}:${i + 1}: ${width} characters`);
    });
}
if (over.length > 0) {
  process.stderr.write(`${over.join('\n')}\n${over.length} line(s) over ${MAX_WIDTH} characters\n`);
  process.exit(1);
}
