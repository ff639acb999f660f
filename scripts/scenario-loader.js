// The module that loads dist/scenario.bundle.cjs (scripts/bundle.js) and hands it what it takes from
// outside itself. Two copies are made from this one text, the same but for where our modules are:
// - dist/scenario/cli.js, an ES module (`sandbox start` imports it, and `scenario run` wherever the
//   launcher runs dist/main/cli.js): `from` is '../';
// - inside the bundle of `scenario run` (dist/command.scenario-run.cjs, scripts/client-bundles.js),
//   which stands in dist/ itself: `from` is './'. Our modules it imports are then the bundle's own,
//   the same instances its program and commands use (`instanceof UsageError`, one registry).
// In both, the bundle is `scenario.bundle.cjs` in dist/, named from the loader's own file.

/** A line of the loader's head, the loader's first line: how scripts/bundle.js knows its own output. */
export const LOADER_MARK = '// Built by scripts/bundle.js:';

/** The ES module packages a bundled loader takes from its caller: their default exports, by name. */
export const defaultsOf = ({ externals }) => externals.filter((e) => e.as === 'default').map((e) => e.id);

/**
 * The loader's source. `externals`: what the bundle requires, in order, each `{ id, as }`: `as` is
 * 'namespace' (one of our ES modules, imported by the loader), 'default' (an ES module package whose
 * default export the bundle reads as `require(id)`) or 'require' (a CommonJS package, required).
 * `exports`: the names the loader re-exports. In a bundle (`from` './'), a package is taken from the
 * bundle's own `require`: loadBundle's, which gives the values its caller imported first (an ES module
 * package cannot be required on every Node 20; src/main/launch.ts imports it, its default export).
 * @example scenarioLoader(JSON.parse(readFileSync('dist/scenario.loader.json', 'utf8')), './')
 */
export function scenarioLoader({ externals, exports }, from) {
  const inBundle = from === './';
  const path = (id) => (id.startsWith('./') ? `${from}${id.slice(2)}` : id);
  const imported = externals.filter((e) => e.as === 'namespace' || (e.as === 'default' && !inBundle));
  const name = (e) => `external${imported.indexOf(e)}`;
  const value = (e) =>
    !imported.includes(e) ? `require(${JSON.stringify(e.id)})` : e.as === 'default' ? `${name(e)}.default` : name(e);
  const makeRequire = inBundle ? '' : 'const require = createRequire(import.meta.url);\n';
  return `${LOADER_MARK} the scenario engine and the sandbox server, as one CommonJS file run with its code cache.
${inBundle ? '' : "import { createRequire } from 'node:module';\n"}import { fileURLToPath } from 'node:url';
import { loadBundle } from '${from}main/code-cache.js';
${imported.map((e) => `import * as ${name(e)} from ${JSON.stringify(path(e.id))};`).join('\n')}
${makeRequire}const { exports } = loadBundle(fileURLToPath(new URL('${from}scenario.bundle.cjs', import.meta.url)), {
${externals.map((e) => `  ${JSON.stringify(e.id)}: ${value(e)},`).join('\n')}
});
${exports.map((n) => `export const ${n} = exports.${n};`).join('\n')}
`;
}
