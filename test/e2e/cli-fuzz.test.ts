import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandboxCli } from '../helpers/cli.js';

/** Random flags and arguments for every command: a failure is one clear line and exit 1 or 2, never a stack trace. */
const COMMANDS = [
  ['wallets', 'create'],
  ['wallets', 'get'],
  ['wallets', 'list'],
  ['wallets', 'close'],
  ['wallets', 'unlock'],
  ['credit'],
  ['transfer'],
  ['transactions', 'list'],
  ['transactions', 'get'],
  ['agents', 'create'],
  ['agents', 'toggle'],
  ['agents', 'list'],
  ['agents', 'runs'],
  ['suspense', 'list'],
  ['suspense', 'show'],
  ['suspense', 'resolve'],
  ['webhooks', 'list'],
  ['webhooks', 'show'],
  ['webhooks', 'retry'],
  ['webhooks', 'endpoint', 'set'],
  ['banks', 'list'],
  ['banks', 'resolve'],
  ['sandbox', 'clock', 'advance'],
  ['sandbox', 'receiver', 'fail'],
  ['sandbox', 'payouts', 'settle'],
];
const FLAGS = [
  '--amount',
  '--page',
  '--limit',
  '--status',
  '--reason',
  '--type',
  '--bank',
  '--action',
  '--target-wallet',
  '--threshold',
  '--trigger',
  '--times',
  '--sweep-amount',
  '--customer-reference',
  '--email',
  '--first-name',
  '--last-name',
  '--event-type',
  '--wallet',
  '--narration',
  '--json',
  '--quiet',
  '--desc',
  '--on',
  '--off',
  '--all-failed',
  '--dry-run',
  '--yes',
  '--nonsense',
];
const VALUES = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e13',
    '99999999999999999999999',
    'abc',
    '',
    ' ',
    'NaN',
    '₦500',
    '0123456789',
    '2222222222',
    'CREDIT_WALLET',
    'FOO',
    'x'.repeat(300),
    'http://',
    '--',
    '"quoted"',
    '$(rm -rf /)',
  ),
  fc.string({ maxLength: 20 }),
);

const cli = useSandboxCli();
beforeAll(async () => {
  await cli.run([
    'wallets',
    'create',
    '--customer-reference',
    'fz',
    '--first-name',
    'F',
    '--last-name',
    'Z',
    '--email',
    'f@z.ng',
  ]);
});

describe('the command line under hostile flags', () => {
  it('answers every malformed invocation with one clear error and exit 1 or 2', async () => {
    const invocations = fc.sample(
      fc
        .tuple(fc.constantFrom(...COMMANDS), fc.array(fc.oneof(VALUES, fc.constantFrom(...FLAGS)), { maxLength: 6 }))
        .map(([command, rest]) => [...command, ...rest]),
      { seed: 20261121, numRuns: 60 },
    );
    for (const args of invocations) {
      const r = await cli.run(args);
      const where = `ledger ${JSON.stringify(args)} → ${r.exitCode}: ${r.stderr}`;
      expect([0, 1, 2], where).toContain(r.exitCode);
      expect(r.stderr, where).not.toMatch(/\n\s+at .+:\d+:\d+/);
      if (r.exitCode !== 0) expect(r.stderr, where).toMatch(/^Error \[[A-Z_]+\]: \S/);
    }
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    // 60 whole `ledger` processes: near 30 s on a loaded 2-core machine.
  }, 120_000);
});
