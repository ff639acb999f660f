import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The engine knows nothing of HTTP (docs/layout.md): it imports nothing from the layers above it,
 * and names no route. A rule that needs a route (which stored answers a reset keeps) takes it from
 * its caller, so the route's name and the rule each have one home.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ENGINE = join(ROOT, 'src/engine');
const ABOVE = ['src/api', 'src/sandbox', 'src/commands'].map((dir) => join(ROOT, dir));

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

describe('src/engine', () => {
  it('imports nothing from api/, sandbox/ or commands/', () => {
    const upward = sources(ENGINE).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => {
          const target = resolve(file, '..', spec);
          return ABOVE.some((dir) => target === dir || target.startsWith(`${dir}/`));
        })
        .map((spec) => `${relative(ROOT, file)} → ${spec}`),
    );
    expect(upward).toEqual([]);
  });

  it('holds no route as a value: no string starts with /v1/ or /sandbox/', () => {
    const routes = sources(ENGINE).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['"`](\/(?:v1|sandbox)\/[^'"`]*)['"`]/g)].map(
        (m) => `${relative(ROOT, file)}: ${m[1]}`,
      ),
    );
    expect(routes).toEqual([]);
  });
});
