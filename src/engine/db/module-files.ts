import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the project's modules and the files the build puts beside them are: src/ (under the test
 * runner), dist/, or, when this module is inside a bundle, the bundle's folder, which is dist/
 * (scripts/bundle.js puts dist/scenario.bundle.cjs there). Inside a bundle `import.meta.url` names the
 * bundle, not the module, so what a module finds beside itself is found from here instead.
 */
const HERE = import.meta.url;
const ROOT = /\/engine\/db\/module-files\.[jt]s$/.test(HERE) ? new URL('../../', HERE) : new URL('./', HERE);

/** Whether the project runs from its TypeScript sources (the test runner) rather than from dist/. */
export const FROM_SOURCE = HERE.endsWith('.ts');

/**
 * The URL of a module named by its path under src/ or dist/, without its extension.
 * @example moduleUrl('engine/audit/audit.service') // file:///…/dist/engine/audit/audit.service.js
 */
export function moduleUrl(path: string): string {
  return new URL(`${path}${FROM_SOURCE ? '.ts' : '.js'}`, ROOT).href;
}

/** The path of a file the build wrote under dist/ (none from the sources: undefined there). */
export function builtFile(path: string): string | undefined {
  return FROM_SOURCE ? undefined : fileURLToPath(new URL(path, ROOT));
}

/**
 * A module's built file. Under the test runner the engine runs from `src/*.ts`, but a worker thread
 * runs plain JavaScript: it loads the same module from `dist/` (built by `npm run build`).
 */
export function built(url: string): string {
  if (!url.endsWith('.ts')) return url;
  const js = url.replace(/\/src\/((?:(?!\/src\/).)*)\.ts$/, '/dist/$1.js');
  if (!existsSync(fileURLToPath(js)))
    throw new Error(`${js} is missing: a read off the request thread runs the built code (npm run build)`);
  return js;
}
