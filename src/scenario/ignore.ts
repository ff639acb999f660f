import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../client/errors.js';

/** The file in a directory given to `scenario run` that names what to pass over below it. */
export const IGNORE_FILE = '.ledgerignore';

/**
 * One glob as a regular expression over a relative path with `/` separators: `**` any run of
 * folders (none included), `*` any characters but `/`, `?` one. Node 20 has no glob matcher
 * (path.matchesGlob is 22+), and these three are all a list of fixtures needs.
 */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Whether a path below a given directory is passed over. As in .gitignore, a glob without a `/` is
 * matched against each name on the path (`*.bad.yaml` at any depth), one with a `/` against the
 * path from the directory (`broken/**`); a folder that matches takes everything below it with it.
 */
export type Excluded = (relativePath: string) => boolean;

export function excluder(globs: string[]): Excluded {
  const rules = globs.map((glob) => {
    const trimmed = glob.replace(/^\/+|\/+$/g, '');
    return { anchored: glob.includes('/') && trimmed !== '', pattern: globToRegExp(trimmed) };
  });
  return (relativePath) => {
    const parts = relativePath.split('/');
    return rules.some(({ anchored, pattern }) =>
      anchored
        ? parts.some((_, i) => pattern.test(parts.slice(0, i + 1).join('/')))
        : parts.some((name) => pattern.test(name)),
    );
  };
}

/** `--exclude` as given: an empty glob would say nothing, and is refused rather than ignored. */
export function checkExcludes(globs: string[]): string[] {
  for (const glob of globs)
    if (glob.trim() === '') throw new UsageError("--exclude is empty: give a glob (--exclude 'broken/**')");
  return globs;
}

/** The globs of a directory's .ledgerignore: one a line; blank lines and `#` comments do not count. */
export function ignoredIn(dir: string): string[] {
  const file = join(dir, IGNORE_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
