import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/registry.js';
import { assemble } from '../../src/main/program.js';
import { sectionOf } from '../helpers/docs.js';

function leaves(command: Command, path: string[] = []): { path: string; command: Command }[] {
  const here = [...path, command.name()];
  const own = [{ path: here.join(' '), command }];
  return [...own, ...command.commands.flatMap((sub) => leaves(sub, here))];
}

const program = await assemble('', true);

describe('--help', () => {
  const all = leaves(program);

  it("has every command the registry registers, each listed in its parent's --help (`ledger --help` for the top level)", () => {
    const byPath = new Map(all.map((c) => [c.path, c.command]));
    for (const { path } of COMMANDS) {
      const command = byPath.get(`ledger ${path}`);
      expect(command, `ledger ${path} is not reachable`).toBeDefined();
      const parent = byPath.get(['ledger', ...path.split(' ').slice(0, -1)].join(' '))!;
      let text = '';
      parent.configureOutput({ writeOut: (s) => (text += s) });
      parent.outputHelp();
      const listed = text.slice(text.indexOf('\nCommands:\n'), text.indexOf('\nExamples:\n'));
      expect(listed, `${parent.name()} --help does not list ${path}`).toMatch(
        new RegExp(`^  ${path.split(' ').at(-1)}\\b`, 'm'),
      );
    }
  });

  it.each(leaves(program).map((c) => [c.path, c.command] as const))(
    '%s --help has examples and the exit codes',
    (_path, command) => {
      let text = '';
      command.configureOutput({ writeOut: (s) => (text += s) });
      command.outputHelp();
      expect(text).toMatch(/Examples:\n {2}\$ .*ledger /);
      expect(text).toContain(
        'Exit codes: 0 success · 1 the API refused (4xx/5xx) · 2 usage error ·\n3 sandbox not reachable · 130 cancelled at a prompt.',
      );
    },
  );
});

/**
 * The commands docs/commands.md documents in its table, by registry path. A row names its first
 * command whole (`ledger sandbox keys`) and may add others after " / ", named below a parent of the
 * first (`keys rotate`, `restore`); `settle\|fail` names two. A name that is no command comes back as
 * itself, to fail the test.
 */
function documented(section: string, runs: Set<string>, known: Set<string>): Set<string> {
  const paths = new Set<string>();
  /** The leading words of a command, each `a\|b` taken both ways. */
  const expand = (text: string): string[][] => {
    let lines: string[][] = [[]];
    for (const word of text.split(' ')) {
      if (!/^[a-z]+(\\\|[a-z]+)*$/.test(word)) break;
      lines = lines.flatMap((line) => word.split('\\|').map((w) => [...line, w]));
    }
    return lines;
  };
  /** The deepest known command that `words` name below `prefix`. */
  const deepest = (prefix: string[], words: string[]) => {
    for (let n = words.length; n > 0; n--) {
      const path = [...prefix, ...words.slice(0, n)].join(' ');
      if (known.has(path)) return runs.has(path) ? path : [...prefix, ...words].join(' ');
    }
    return undefined;
  };
  for (const row of section.matchAll(/^\| (`ledger .*?`) \| /gm)) {
    const [first, ...others] = row[1]!.split(/` \/ `/).map((cell) => cell.replaceAll('`', ''));
    let base: string[] = [];
    for (const words of expand(first!.replace(/^ledger /, ''))) {
      const path = deepest([], words) ?? words.join(' ');
      paths.add(path);
      if (base.length === 0) base = path.split(' ');
    }
    for (const other of others) {
      for (const words of expand(other)) {
        let path: string | undefined;
        for (let keep = base.length - 1; keep >= 0 && !path; keep--) path = deepest(base.slice(0, keep), words);
        paths.add(path ?? [...base.slice(0, -1), ...words].join(' '));
      }
    }
  }
  return paths;
}

describe('the command reference (docs/commands.md)', () => {
  it('documents every command that runs (a group is the rows of its commands), and no command that is not there', () => {
    const runs = new Set(COMMANDS.filter((c) => c.load).map((c) => c.path));
    const found = documented(
      sectionOf('docs/commands.md', '# Command reference'),
      runs,
      new Set(COMMANDS.map((c) => c.path)),
    );
    expect(
      [...runs].filter((path) => !found.has(path)),
      'commands missing from docs/commands.md',
    ).toEqual([]);
    expect(
      [...found].filter((path) => !runs.has(path)),
      'docs/commands.md rows that name no command',
    ).toEqual([]);
  });
});
