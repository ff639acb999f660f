import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house is one-way (ARCHITECTURE.md): each folder of src/ may import only from its own layer and
 * the layers below it. An import the other way is a layer run backwards, and usually a circle in
 * waiting, so every import is read here, type-only and dynamic ones included.
 */

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/** Bottom to top. `index.ts` is the library's entry (`startSandbox`), beside `main/`, the program's. */
const LAYERS = [
  ['text', 'version.ts'],
  ['engine'],
  ['api'],
  ['client'],
  ['sandbox'],
  ['scenario'],
  ['cli'],
  ['commands'],
  ['main', 'index.ts'],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file names: `import … from`, `export … from` and `import('…')`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/** The layer of a file below src/, by its first path segment. */
function layerOf(file: string): number {
  const top = relative(SRC, file).split(sep)[0]!.replace(/\.js$/, '.ts');
  return LAYERS.findIndex((names) => names.includes(top));
}

/** `from → to` for every import of `file` (its text) that reaches a higher layer. */
function upward(file: string, text: string): string[] {
  return specifiers(text)
    .filter((spec) => spec.startsWith('.'))
    .filter((spec) => layerOf(resolve(file, '..', spec)) > layerOf(file))
    .map((spec) => `${relative(ROOT, file)} → ${spec}`);
}

describe('the layers of src/', () => {
  it('place every folder and loose file of src/ in a layer', () => {
    const unplaced = readdirSync(SRC).filter((name) => layerOf(join(SRC, name)) === -1);
    expect(unplaced).toEqual([]);
  });

  it('no file imports from a layer above its own', () => {
    expect(sources(SRC).flatMap((file) => upward(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the check sees an upward import, type-only or dynamic', () => {
    const engineFile = join(SRC, 'engine/example.ts');
    const text =
      "import type { Io } from '../cli/io-types.js';\nconst m = await import('../sandbox/app.js');\nimport { toKobo } from './money.js';";
    expect(upward(engineFile, text)).toEqual([
      'src/engine/example.ts → ../cli/io-types.js',
      'src/engine/example.ts → ../sandbox/app.js',
    ]);
    expect(upward(join(SRC, 'scenario/x.ts'), "import { COMMANDS } from '../commands/registry.js';")).toHaveLength(1);
  });
});

describe('the engine', () => {
  // It knows nothing of HTTP: a rule that needs a route (which stored answers a reset keeps) takes it
  // from its caller, so the route's name and the rule each have one home. Its imports are held above.
  it('holds no route as a value: no string starts with /v1/ or /sandbox/', () => {
    const routes = sources(join(SRC, 'engine')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['"`](\/(?:v1|sandbox)\/[^'"`]*)['"`]/g)].map(
        (m) => `${relative(ROOT, file)}: ${m[1]}`,
      ),
    );
    expect(routes).toEqual([]);
  });
});
