import { describe, expect, it } from 'vitest';
import { Command, Option } from '../../src/cli/command.js';
import { commander } from '../../src/cli/commander.js';
import { enumOption } from '../../src/cli/options.js';

/** A command declared the way the CLI's commands are, whose action records what it was given. */
function declare(seen: unknown[][]) {
  return new Command('ledger test')
    .argument('<from>', 'a required argument')
    .argument('[to]', 'an optional one')
    .option('--json', 'a flag')
    .option('-q, --quiet', 'a flag with a short form')
    .option('--limit <n>', 'a value with a default', '20')
    .option('--no-transfers-out', 'a negation')
    .option('--customer-reference <ref>', 'a value')
    .addOption(enumOption('--action <action>', 'an enum', ['CREDIT_WALLET', 'DISMISS']))
    .addOption(new Option('--base-url <url>', 'from the environment').env('TEST_BASE_URL'))
    .addOption(new Option('--memory', 'conflicts with --db').conflicts('db'))
    .option('--db <path>', 'a path')
    .action((...received: unknown[]) => {
      seen.push(received.slice(0, -1));
    });
}

async function viaCommander(words: string[], env: Record<string, string>) {
  const seen: unknown[][] = [];
  const saved = process.env.TEST_BASE_URL;
  if (env.TEST_BASE_URL) process.env.TEST_BASE_URL = env.TEST_BASE_URL;
  else delete process.env.TEST_BASE_URL;
  try {
    const command = declare(seen)
      .toCommander(commander)
      .exitOverride()
      .configureOutput({ writeErr: () => {}, writeOut: () => {} });
    await command.parseAsync(words, { from: 'user' });
  } finally {
    if (saved === undefined) delete process.env.TEST_BASE_URL;
    else process.env.TEST_BASE_URL = saved;
  }
  return seen[0];
}

describe('the command line’s own parser', () => {
  it.each([
    [['w1']],
    [['w1', 'w2', '--json']],
    [['--json', 'w1', '-q']],
    [['w1', '--limit', '5', '--customer-reference=ref-9']],
    [['w1', '--no-transfers-out']],
    [['w1', '--action', 'dismiss']],
    [['w1', '--action', 'whatever']],
    [['w1', '--', '--not-a-flag']],
    [['w1', '--memory']],
    [['w1', '--db', 'x.db']],
  ])('reads %j exactly as commander does', async (words) => {
    for (const env of [{}, { TEST_BASE_URL: 'http://127.0.0.1:9' }] as Record<string, string>[]) {
      const seen: unknown[][] = [];
      expect(await declare(seen).parseFast(words, env)).toBe(true);
      expect(seen[0]).toEqual(await viaCommander(words, env));
    }
  });

  it.each([
    [['w1', '--help']],
    [['w1', '-h']],
    [['w1', '--colour']],
    [['w1', '-qj']],
    [['w1', '--limit']],
    [['w1', '--json=yes']],
    [[]],
    [['w1', 'w2', 'w3']],
    [['w1', '--memory', '--db', 'x.db']],
    [['w1', '-5']],
  ])('hands %j to commander and runs nothing', async (words) => {
    const seen: unknown[][] = [];
    expect(await declare(seen).parseFast(words, {})).toBe(false);
    expect(seen).toEqual([]);
  });
});
