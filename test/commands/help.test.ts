import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/program.js';

function leaves(command: Command, path: string[] = []): { path: string; command: Command }[] {
  const here = [...path, command.name()];
  const own = [{ path: here.join(' '), command }];
  return [...own, ...command.commands.flatMap((sub) => leaves(sub, here))];
}

const program = await assemble('', true);

describe('--help', () => {
  const all = leaves(program);

  it('covers every command of contract §9 that this version has', () => {
    const paths = all.map((c) => c.path);
    for (const expected of [
      'ledger sandbox start', 'ledger sandbox stop', 'ledger sandbox status', 'ledger sandbox env', 'ledger sandbox reset',
      'ledger sandbox audit', 'ledger sandbox keys', 'ledger sandbox keys rotate', 'ledger sandbox clock', 'ledger sandbox clock advance',
      'ledger wallets create', 'ledger wallets get', 'ledger wallets close', 'ledger wallets list', 'ledger wallets unlock',
      'ledger credit', 'ledger transfer', 'ledger transactions list', 'ledger transactions get',
      'ledger banks list', 'ledger banks resolve', 'ledger sandbox magic', 'ledger sandbox payouts settle', 'ledger sandbox payouts fail',
      'ledger suspense list', 'ledger suspense show', 'ledger suspense resolve',
      'ledger webhooks list', 'ledger webhooks show', 'ledger webhooks retry', 'ledger webhooks tail', 'ledger webhooks secret', 'ledger webhooks endpoint', 'ledger webhooks endpoint set',
      'ledger sandbox receiver fail', 'ledger sandbox receiver reset',
      'ledger agents create', 'ledger agents toggle', 'ledger agents list', 'ledger agents runs',
    ]) expect(paths).toContain(expected);
  });

  it.each(leaves(program).map((c) => [c.path, c.command] as const))('%s --help has examples and the exit codes', (_path, command) => {
    let text = '';
    command.configureOutput({ writeOut: (s) => (text += s) });
    command.outputHelp();
    expect(text).toMatch(/Examples:\n {2}\$ .*ledger /);
    expect(text).toContain('Exit codes: 0 success · 1 the API refused (4xx/5xx) · 2 usage error ·\n3 sandbox not reachable · 130 cancelled at a prompt.');
  });
});
