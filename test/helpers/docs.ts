import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** A Markdown file of this repository, by its path from the root (`README.md`, `docs/walkthroughs.md`). */
export const readDoc = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

/**
 * One section of a Markdown file: from its heading line to the next heading of the same level or
 * higher, subsections included. A `# comment` line inside a fenced block is no heading. A heading
 * that is not there throws, naming the file, so a renamed or moved section fails the test that runs
 * its blocks instead of running none of them.
 */
export function sectionOf(path: string, heading: string): string {
  const lines = readDoc(path).split('\n');
  const level = /^#+/.exec(heading)![0].length;
  let fenced = false;
  let start = -1;
  let end = lines.length;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    if (start < 0 && line === heading) start = i;
    else if (start >= 0 && (/^(#+) /.exec(line)?.[1]!.length ?? Infinity) <= level) {
      end = i;
      break;
    }
  }
  if (start < 0) throw new Error(`no "${heading}" in ${path}`);
  return `${lines.slice(start, end).join('\n')}\n`;
}
