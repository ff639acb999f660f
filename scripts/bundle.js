// Run by `npm run build` after tsc and after-build.js: `ledger scenario run` as one file, with the
// bytecode V8 made for it.
//
// A scenario run imports the scenario engine, yaml, zod and the whole sandbox server (fastify,
// kysely, the engine): about 900 files, whose resolution, reading and linking cost more than the
// 100 steps of a typical scenario. Rolldown puts them into dist/scenario.bundle.cjs, and
// dist/scenario/cli.js (tsc's output, the module `ledger scenario run` imports) becomes a small
// module that imports what the bundle takes from outside and runs the bundle through
// dist/main/code-cache.js (src/main/code-cache.ts). Kept out of the bundle, imported from their own files as usual:
// - every module of ours outside scenario/, sandbox/, engine/ and api/ (the command line: client/, text/,
//   commands/, program.js, version.js): the commands a scenario step runs load them too, and must
//   see the same classes (`instanceof UsageError`) and the same registry;
// - better-sqlite3 (native), word-list (finds its words.txt beside its own file), commander (loaded
//   by the command line anyway).
// The bundle is CommonJS, not an ES module: Node 20 compiles an ES module from its source at every
// start, while a script run through `vm.Script` takes V8's code cache. scripts/code-cache.js then
// runs sample scenarios through it and writes dist/scenario.bundle.cjs.cache (see code-cache.ts).
// @fastify/swagger is inside: its own package.json, which it reads through __dirname (the bundle's
// folder here) only for a default `info` that app.ts always gives, is then not found, which it
// allows; the test of the bundle reads the OpenAPI document through it.
// The bundle stands in dist/ itself: version.js reads ../package.json from its own file, and
// engine/db/module-files.ts takes the bundle's folder for dist/ when it finds itself in a bundle.
// No source map: the bundle is not minified, and each module in it starts with a `// dist/…` line,
// so a stack trace into it reads as it is (a map would add 5 MB to the package).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { LOADER_MARK, scenarioLoader } from './scenario-loader.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const ENTRY = resolve(DIST, 'scenario/cli.js');
const BUNDLE = resolve(DIST, 'scenario.bundle.cjs');
const LOADER_DATA = resolve(DIST, 'scenario.loader.json');
const BUNDLED = /^(scenario|sandbox|engine|api)\//;
const EXTERNAL_PACKAGES = new Set(['better-sqlite3', 'word-list', 'commander']);

if (readFileSync(ENTRY, 'utf8').startsWith(LOADER_MARK))
  throw new Error("dist/scenario/cli.js is already the bundle's loader: run `npm run build` (tsc first)");
// What an earlier build left (the ES module bundle of before, a cache of another bundle).
for (const file of ['scenario.bundle.js', 'scenario.bundle.cjs.cache', 'scenario.loader.json'])
  rmSync(resolve(DIST, file), { force: true });

const packageOf = (source) =>
  source
    .split('/')
    .slice(0, source.startsWith('@') ? 2 : 1)
    .join('/');

const { output } = await build({
  input: ENTRY,
  platform: 'node',
  logLevel: 'warn',
  plugins: [
    {
      name: 'ledger-externals',
      resolveId(source, importer) {
        if (!importer) return null;
        if (source.startsWith('.')) {
          const target = resolve(dirname(importer), source);
          const underDist = relative(DIST, target).split(sep).join('/');
          if (underDist.startsWith('..') || BUNDLED.test(underDist)) return null;
          // Imported from the bundle's folder, whatever folder the importing module was in.
          return { id: `./${underDist}`, external: true };
        }
        return EXTERNAL_PACKAGES.has(packageOf(source)) ? { id: source, external: true } : null;
      },
    },
  ],
  output: { file: BUNDLE, format: 'cjs', codeSplitting: false },
});

const [chunk] = output;
const builtin = (id) => id.startsWith('node:') || builtinModules.includes(id.split('/')[0]);
/** A package of CommonJS modules (better-sqlite3): required, since importing one makes Node lex its files for their export names. */
function commonJs(id) {
  let dir = dirname(fileURLToPath(import.meta.resolve(id)));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type !== 'module';
}
// The bundle names ours from dist/ ('./client/config.js'). A package's value is what its CommonJS
// `require` would give: the bundle reads a default import as `require(id)` itself.
const externals = chunk.imports
  .filter((id) => !builtin(id))
  .map((id) => ({ id, as: id.startsWith('./') ? 'namespace' : commonJs(id) ? 'require' : 'default' }));
const loader = { externals, exports: chunk.exports };
writeFileSync(ENTRY, scenarioLoader(loader, '../'));
// For the bundle of `scenario run` (scripts/client-bundles.js), which writes the same loader into it.
writeFileSync(LOADER_DATA, `${JSON.stringify(loader, null, 2)}\n`);
for (const map of [`${ENTRY}.map`, `${BUNDLE}.map`]) rmSync(map, { force: true });
execFileSync(process.execPath, [fileURLToPath(new URL('./code-cache.js', import.meta.url))], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
