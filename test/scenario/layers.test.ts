import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The scenario engine sits below the commands: `scenario run` (src/commands) loads it, and the
 * program hands it the command lines a step runs. An import the other way is a layer run backwards
 * (and, through the registry, a circle), so every import, type-only or not, is read here.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const SCENARIO = join(ROOT, 'src/scenario');

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

describe('src/scenario', () => {
  it('imports nothing from src/commands', () => {
    const commands = join(ROOT, 'src/commands');
    const upward = sources(SCENARIO).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => {
          const target = resolve(file, '..', spec);
          return target === commands || target.startsWith(`${commands}/`);
        })
        .map((spec) => `${relative(ROOT, file)} → ${spec}`),
    );
    expect(upward).toEqual([]);
  });
});
