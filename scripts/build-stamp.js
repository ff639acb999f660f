// What dist/ was built from, so `npm test` builds only when that changed.
//
// `node scripts/build-stamp.js clear` (the first step of `npm run build`, so a build cut off
// halfway leaves no stamp) removes it; `node scripts/build-stamp.js write` (the last step of `npm run build`) records a hash of every
// input of the build in dist/.build-stamp; `node scripts/build-stamp.js check` exits 0 when the
// inputs still hash to it and 1 otherwise. `npm ci` builds once (prepare), and CI's `npm test`
// used to build the same tree again: 21 s of a run that must stay under 15 minutes.
//
// The inputs: the sources, the build scripts, the package and TypeScript configuration, the
// lockfile (the bundles inline packages), the examples the code caches are warmed on, and the
// Node that made the code caches (V8 rejects a cache from another version).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const INPUTS = [
  'src',
  'scripts',
  'examples',
  'bin',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

function files(path) {
  if (!existsSync(path)) return [];
  try {
    return readdirSync(path, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .flatMap((entry) => files(join(path, entry.name)));
  } catch {
    return [path];
  }
}

function inputsHash() {
  const hash = createHash('sha256').update(`${process.version} ${process.arch} ${process.platform}\n`);
  for (const file of INPUTS.flatMap((input) => files(join(root, input)))) {
    hash
      .update(`${relative(root, file)}\n`)
      .update(readFileSync(file))
      .update('\n');
  }
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === 'clear') {
  rmSync(stamp, { force: true });
} else if (mode === 'write') {
  writeFileSync(stamp, `${inputsHash()}\n`);
} else if (mode === 'check') {
  const recorded = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (recorded !== inputsHash()) process.exit(1);
  console.log('dist/ is built from these sources (dist/.build-stamp): not building again');
} else {
  console.error('usage: node scripts/build-stamp.js clear|write|check');
  process.exit(2);
}
