// Run by `npm run build` after tsc and after-build.js: `ledger scenario run` as one file.
//
// A scenario run imports the scenario engine, yaml, zod and the whole sandbox server (fastify,
// kysely, the engine): about 900 files, whose resolution, reading and linking cost more than the
// 100 steps of a typical scenario. Rolldown puts them into dist/scenario.bundle.js, and
// dist/scenario/cli.js (tsc's output, the module `ledger scenario run` imports) becomes a
// re-export of it. Kept out of the bundle, imported from their own files as usual:
// - every module of ours outside scenario/, sandbox/, engine/ and api/ (the command line: client/,
//   commands/, program.js, version.js): the commands a scenario step runs load them too, and must
//   see the same classes (`instanceof UsageError`) and the same registry;
// - better-sqlite3 (native), word-list (finds its words.txt beside its own file), commander (loaded
//   by the command line anyway).
// @fastify/swagger is inside: its own package.json, which it reads through __dirname (undefined in
// an ES module) only for a default `info` that app.ts always gives, is then not found, which it
// allows; the test of the bundle reads the OpenAPI document through it.
// The bundle stands in dist/ itself: version.js reads ../package.json from its own file, and
// engine/db/module-files.ts takes the bundle's folder for dist/ when it finds itself in a bundle.
// No source map: the bundle is not minified, and each module in it starts with a `// dist/…` line,
// so a stack trace into it reads as it is (a map would add 5 MB to the package).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const ENTRY = resolve(DIST, 'scenario/cli.js');
const BUNDLE = resolve(DIST, 'scenario.bundle.js');
const REEXPORT = "// Built by scripts/bundle.js: the scenario engine and the sandbox server, as one file.\nexport * from '../scenario.bundle.js';\n";
const BUNDLED = /^(scenario|sandbox|engine|api)\//;
const EXTERNAL_PACKAGES = new Set(['better-sqlite3', 'word-list', 'commander']);

if (readFileSync(ENTRY, 'utf8') === REEXPORT) throw new Error('dist/scenario/cli.js is already the bundle\'s re-export: run `npm run build` (tsc first)');

const packageOf = (source) => source.split('/').slice(0, source.startsWith('@') ? 2 : 1).join('/');

await build({
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
  output: { file: BUNDLE, format: 'esm', codeSplitting: false },
});

writeFileSync(ENTRY, REEXPORT);
for (const map of [`${ENTRY}.map`, `${BUNDLE}.map`]) rmSync(map, { force: true });
