import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every decision the code and the docs rely on is stated in docs/decisions.md, by topic, so a
 * reader of this repository needs nothing outside it. Comments cite a topic as
 * `(decisions: Topic)`, the docs link to `decisions.md#anchor`; a section number of a document
 * kept elsewhere tells a reader nothing they can open, and goes stale when that document moves.
 */

const ROOTS = ['README.md', 'docs', 'src', 'test', 'bench', 'scripts'];
/** The section sign, written as an escape so that this file does not cite anything itself. */
const S = '\u00a7';
/** A section of another document: "contract" with a section sign, or a sign and a number, but a public standard's ("RFC 9110 ...") is fine. */
const OUTSIDE = new RegExp(`contract\\s*${S}|(?<!RFC \\d+ )${S}\\s*\\d|CONTRACT\\.md`, 'i');
const CITATION = /\(decisions: ([^)\n]*)\)/g;
const UNCLOSED = /\(decisions:(?![^)\n]*\))/;
const LINK = /decisions\.md#([\w-]+)/g;
const OWN_LINK = /\]\(#([\w-]+)\)/g;

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function headingsOf(markdown: string): string[] {
  return [...markdown.matchAll(/^#{2,6} (.+)$/gm)].map((match) => match[1]!.trim());
}

/** What is wrong with the citations in `text`, one line per problem, given decisions.md's headings. */
function citationProblems(file: string, text: string, headings: string[]): string[] {
  const anchors = new Set(headings.map(anchorOf));
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    const at = `${file}:${index + 1}`;
    if (OUTSIDE.test(line))
      problems.push(`${at}: cites a section of a document outside the repository: ${line.trim()}`);
    if (UNCLOSED.test(line))
      problems.push(`${at}: a (decisions: …) citation must close on its own line: ${line.trim()}`);
    for (const [, topics] of line.matchAll(CITATION)) {
      for (const topic of topics!.split('; ')) {
        if (!headings.includes(topic)) problems.push(`${at}: no heading "${topic}" in docs/decisions.md`);
      }
    }
    for (const [, anchor] of line.matchAll(LINK)) {
      if (!anchors.has(anchor!)) problems.push(`${at}: no heading with anchor #${anchor} in docs/decisions.md`);
    }
    if (file === 'docs/decisions.md') {
      for (const [, anchor] of line.matchAll(OWN_LINK)) {
        if (!anchors.has(anchor!)) problems.push(`${at}: no heading with anchor #${anchor} in docs/decisions.md`);
      }
    }
  });
  return problems;
}

describe('citations of decisions', () => {
  const headings = headingsOf(readFileSync('docs/decisions.md', 'utf8'));

  it('reads a citation of a missing topic, a section sign and a broken anchor as problems', () => {
    const text = [
      'a (decisions: Idempotency) rule',
      `a (decisions: No such topic) rule`,
      `see contract ${S}3`,
      `see ${S} 8`,
      'RFC 9110 ' + S + '15.5.16 is a standard',
      '[x](decisions.md#nowhere)',
    ].join('\n');
    expect(citationProblems('x.ts', text, headings)).toEqual([
      'x.ts:2: no heading "No such topic" in docs/decisions.md',
      `x.ts:3: cites a section of a document outside the repository: see contract ${S}3`,
      `x.ts:4: cites a section of a document outside the repository: see ${S} 8`,
      'x.ts:6: no heading with anchor #nowhere in docs/decisions.md',
    ]);
  });

  it('every file cites docs/decisions.md by a topic it has, never a section of a document elsewhere', () => {
    const problems = ROOTS.flatMap(filesUnder)
      .map((file) => file.split('\\').join('/'))
      // This file writes wrong citations on purpose, as examples for the check above.
      .filter((file) => file !== 'test/docs/citations.test.ts')
      .flatMap((file) => {
        const bytes = readFileSync(file);
        if (bytes.includes(0)) return [];
        return citationProblems(file, bytes.toString('utf8'), headings);
      });
    expect(problems).toEqual([]);
  });
});
