// Run by `npm run build` after scripts/bundle.js: each client command as one CommonJS file run with
// its code cache, and the CommonJS launcher bin/ledger.js requires (src/main/launch.ts).
//
// For every command module of the registry but those below (they start or load the server, or run
// scenarios), rolldown writes dist/command.NAME.cjs (`commands/wallets/get.js` → command.wallets-get.cjs):
// that module, program.js (its `main`), the client core and the output code, all of ours; packages
// (commander, @inquirer/prompts) stay outside, required only where the code asks for them. Its entry
// points the registry's loaders of the module's own commands inside the bundle; the registry's other
// loaders stay outside it and are never called (a client command builds only itself; completion,
// which builds every command, is not bundled). What a command loads only on some paths (the output
// code, a payout's fee and prompt, commander for help) is inlined as rolldown's lazy module
// initialisers, run only when called: a bundle holds no other command's code, and `--json` runs no
// output code. Each of our modules in a bundle starts with `globalThis.__ledgerModule?.('PATH')`, a
// no-op unless a module-trace test (test/helpers/module-trace.mjs) defines it: the tests see which
// modules ran, as they see which files loaded.
// The bundles stand in dist/ itself: version.js reads ../package.json from its own file.
// dist/commands.json lists every command path and the bundle of each bundled one, for the launcher;
// dist/launch.cjs is src/main/launch.ts with code-cache.ts, as CommonJS. scripts/client-cache.js then runs
// sample invocations through every bundle and writes their caches (dist/command.NAME.cjs.cache).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { defaultsOf, scenarioLoader } from './scenario-loader.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
/** Command modules that stay ES modules, run through dist/main/cli.js: they start, stop or load the server, run scenarios, or follow until Ctrl-C. */
const NOT_BUNDLED = new Set([
  'sandbox/start.js',
  'sandbox/lifecycle.js',
  'scenario/run.js',
  'scenario/init.js',
  'webhooks/tail.js',
  'logs/tail.js',
  'completion.js',
]);
/** None of these may be in a client command's bundle: the server, the database, the scenario engine, zod's schemas. */
const FORBIDDEN = /^(sandbox|scenario|engine\/(db|events|ledger|audit)|api\/(schemas|app|routes))\//;

const { COMMANDS } = await import(new URL('../dist/commands/registry.js', import.meta.url).href);
/** path → [module below commands/, export name], from each loader's text: `import('./wallets/get.js').then((m) => m.getCommand)`. */
const loaders = new Map();
for (const entry of COMMANDS) {
  if (!entry.load) continue;
  const match = /import\('\.\/([^']+)'\)\.then\(\(m\) => m\.(\w+)\)/.exec(String(entry.load));
  if (!match) throw new Error(`registry: cannot read the loader of "${entry.path}": ${entry.load}`);
  loaders.set(entry.path, [match[1], match[2]]);
}
const modules = [...new Set([...loaders.values()].map(([module]) => module))].filter(
  (module) => !NOT_BUNDLED.has(module),
);
const bundleName = (module) => `command.${module.replace(/\.js$/, '').split('/').join('-')}.cjs`;

for (const file of readdirSync(DIST))
  if (
    /^command\..+\.cjs(\.cache)?$/.test(file) ||
    ['commands.json', 'commands.contents.json', 'launch.cjs'].includes(file)
  )
    rmSync(resolve(DIST, file));

const builtin = (id) => id.startsWith('node:') || builtinModules.includes(id.split('/')[0]);
const underDist = (id) => relative(DIST, id).split(sep).join('/');
const bundles = {};
const contents = {};

/**
 * Builds the bundle `file` from an entry module's text: our modules inside, packages outside; a
 * dynamic import `inside(source, importer)` does not keep inside is left to load from its own file
 * (`true`: bundle it; a path: bundle that file instead). Records what it holds, or refuses it.
 */
async function bundle(file, entryText, inside) {
  const entry = resolve(DIST, `.entry.${file}.js`);
  writeFileSync(entry, entryText);
  try {
    const { output } = await build({
      input: entry,
      platform: 'node',
      logLevel: 'warn',
      plugins: [
        {
          name: 'ledger-client',
          resolveId(source, importer) {
            if (!importer || source.startsWith('.') || source.startsWith('/')) return null;
            return { id: source, external: true };
          },
          resolveDynamicImport(source, importer) {
            if (typeof source !== 'string' || !importer) return null;
            const verdict = inside(source, importer);
            if (typeof verdict === 'string') return verdict;
            if (verdict) return null;
            // The registry's other commands: outside the bundle, never loaded by it.
            if (importer.endsWith('/commands/registry.js'))
              return { id: `./commands/${source.replace(/^\.\//, '')}`, external: true };
            return null;
          },
          transform(code, id) {
            if (!id.startsWith(DIST) || basename(id).startsWith('.entry.')) return null;
            return { code: `globalThis.__ledgerModule?.(${JSON.stringify(underDist(id))});\n${code}`, map: null };
          },
        },
      ],
      output: {
        file: resolve(DIST, file),
        format: 'cjs',
        codeSplitting: false,
        dynamicImportInCjs: false,
        sourcemap: false,
      },
    });
    const [chunk] = output;
    const ours = chunk.moduleIds
      .filter((id) => id.startsWith(DIST) && !basename(id).startsWith('.entry.'))
      .map(underDist);
    const forbidden = ours.filter((id) => FORBIDDEN.test(id));
    if (forbidden.length > 0)
      throw new Error(
        `${file} would hold ${forbidden.join(', ')}: keep its command out (NOT_BUNDLED) or its imports lazy`,
      );
    const packages = [...new Set([...chunk.imports, ...chunk.dynamicImports])].filter(
      (id) => !builtin(id) && !id.startsWith('./') && id !== file,
    );
    contents[file] = { modules: ours.sort(), packages: packages.sort() };
  } finally {
    rmSync(entry, { force: true });
  }
}

for (const module of modules) {
  const own = [...loaders].filter(([, [m]]) => m === module);
  await bundle(
    bundleName(module),
    `import { COMMANDS } from './commands/registry.js';
import * as own from './commands/${module}';
export { main } from './main/program.js';
const OWN = ${JSON.stringify(Object.fromEntries(own.map(([path, [, name]]) => [path, name])))};
for (const entry of COMMANDS) if (Object.hasOwn(OWN, entry.path)) entry.load = async () => own[OWN[entry.path]];
`,
    () => false,
  );
  for (const [path] of own) bundles[path] = bundleName(module);
}

// `scenario run`: its own module, every command a step can run (each initialised on its first use),
// and the loader of the scenario bundle (dist/scenario.bundle.cjs, loaded through loadBundle as
// dist/scenario/cli.js loads it), written into the bundle, so that the engine gets the bundle's own
// client modules. What the scenario bundle takes from ES module packages (word-list), the launcher
// imports first (`defaults` in commands.json).
const SCENARIO_RUN = 'scenario/run.js';
const scenarioLoaderFile = resolve(DIST, '.entry.scenario-loader.js');
const scenarioLoaderData = JSON.parse(readFileSync(resolve(DIST, 'scenario.loader.json'), 'utf8'));
writeFileSync(scenarioLoaderFile, scenarioLoader(scenarioLoaderData, './'));
try {
  await bundle(bundleName(SCENARIO_RUN), "export { main } from './main/program.js';\n", (source, importer) => {
    if (importer.endsWith('/commands/scenario/run.js') && source === '../../scenario/cli.js') return scenarioLoaderFile;
    return (
      importer.endsWith('/commands/registry.js') &&
      (!NOT_BUNDLED.has(source.replace(/^\.\//, '')) || source === `./${SCENARIO_RUN}`)
    );
  });
} finally {
  rmSync(scenarioLoaderFile, { force: true });
}
for (const [path, [module]] of loaders) if (module === SCENARIO_RUN) bundles[path] = bundleName(SCENARIO_RUN);
const defaults = { [bundleName(SCENARIO_RUN)]: defaultsOf(scenarioLoaderData) };

writeFileSync(
  resolve(DIST, 'commands.json'),
  `${JSON.stringify({ paths: COMMANDS.map((entry) => entry.path), bundles, defaults })}\n`,
);
// What each bundle holds (our modules below dist/, the packages it may require), for the tests and for people.
writeFileSync(resolve(DIST, 'commands.contents.json'), `${JSON.stringify(contents, null, 2)}\n`);

await build({
  input: resolve(DIST, 'main/launch.js'),
  platform: 'node',
  logLevel: 'warn',
  plugins: [
    {
      name: 'ledger-launch',
      resolveDynamicImport(source) {
        return source === './cli.js' ? { id: './main/cli.js', external: true } : null;
      },
    },
  ],
  output: { file: resolve(DIST, 'launch.cjs'), format: 'cjs', codeSplitting: false, sourcemap: false },
});

try {
  // The samples' own messages (the refusals some of them expect) are shown only if the samples fail.
  execFileSync(process.execPath, [fileURLToPath(new URL('./client-cache.js', import.meta.url))], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
} catch (error) {
  process.stderr.write(`${String(error.stderr ?? '')}scripts/client-cache.js failed (exit ${error.status})\n`);
  process.exit(1);
}
