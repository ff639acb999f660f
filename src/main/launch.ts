import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from './code-cache.js';
import { hoistGlobals } from './global-flags.js';
import { answerQuickly } from './quick.js';

/**
 * What `bin/ledger.js` runs, as the CommonJS file dist/launch.cjs (scripts/client-bundles.js): an
 * ordinary invocation of a client command runs from that command's own CommonJS bundle
 * (dist/command.NAME.cjs: the command, the program and the client core, nothing of any other
 * command) with V8's code cache, without Node's ES module loader at all; `--version` and `--help`
 * answer here too (quick.ts). `scenario run` has a bundle too: every command a step runs, and the
 * loader of the scenario engine's own bundle (scripts/client-bundles.js). Everything else (other help,
 * groups, `sandbox start`, completion) imports dist/main/cli.js as before.
 *
 * Node 20 reads every ES module through its thread pool and compiles it from source at every start:
 * for the 18-27 modules of a client command that was most of what the command cost above `node -e ''`.
 * dist/commands.json (written by the build) names every command path, and the bundle of each one
 * that has one; the bundle's `main` is program.ts's, with the registry's loader of its own command
 * pointing inside the bundle. A missing or unreadable list falls back to dist/main/cli.js (a source tree built
 * by tsc alone), and so does a listed bundle that is not there (a dist/ copied in part): the command
 * then runs from its ES modules, slower, with the same answer.
 */

/** dist/commands.json: every command path, and the bundle file (below dist/) of those that have one. */
export interface CommandBundles {
  paths: string[];
  bundles: Record<string, string>;
  /**
   * By bundle, the ES module packages it takes the default export of (`scenario run`'s: word-list),
   * imported here first: a bundle's `require` could not load them on every Node 20.
   */
  defaults?: Record<string, string[]>;
}

/** What a bundle takes from outside itself that it cannot require: `defaults`' packages, imported. */
export async function externalsOf(bundle: string, list: CommandBundles): Promise<Record<string, unknown>> {
  const ids = list.defaults?.[bundle] ?? [];
  return Object.fromEntries(
    await Promise.all(ids.map(async (id) => [id, ((await import(id)) as { default: unknown }).default])),
  );
}

/** The bundle that runs `args`, or undefined: the words name a command with a bundle of its own. */
export function bundleFor(args: string[], list: CommandBundles): string | undefined {
  if (args[0] === 'help') return undefined;
  const known = new Set(list.paths);
  let path = '';
  for (const word of args) {
    if (word.startsWith('-')) break;
    const next = path ? `${path} ${word}` : word;
    if (!known.has(next)) break;
    path = next;
  }
  return Object.hasOwn(list.bundles, path) ? list.bundles[path] : undefined;
}

function readList(): CommandBundles | undefined {
  try {
    return JSON.parse(readFileSync(join(__dirname, 'commands.json'), 'utf8')) as CommandBundles;
  } catch {
    return undefined;
  }
}

export async function launch(given: string[]): Promise<unknown> {
  const argv = [given[0]!, given[1]!, ...hoistGlobals(given.slice(2))];
  if (await answerQuickly(argv.slice(2))) return;
  const list = readList();
  const bundle = list && bundleFor(argv.slice(2), list);
  if (!bundle || !existsSync(join(__dirname, bundle))) return import('./cli.js');
  const { exports } = loadBundle(join(__dirname, bundle), await externalsOf(bundle, list));
  return (exports.main as (argv: string[]) => Promise<void>)(argv);
}
