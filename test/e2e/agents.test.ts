import { describe, expect, it } from 'vitest';
import { useSandboxCli, createWalletWithCli } from '../helpers/cli.js';

const cli = useSandboxCli();

describe('agents from the command line', () => {
  it('BALANCE_ABOVE 1,000,000 SWEEP into savings: the second of two 600,000 credits crosses it', async () => {
    const main = await createWalletWithCli(cli, 'main');
    const savings = await createWalletWithCli(cli, 'savings');
    const agent = await cli.json([
      'agents',
      'create',
      main,
      '--name',
      'To savings',
      '--trigger',
      'BALANCE_ABOVE',
      '--threshold',
      '1000000',
      '--action',
      'SWEEP',
      '--destination',
      savings,
    ]);
    expect(agent).toMatchObject({
      trigger: 'BALANCE_ABOVE',
      threshold: 1_000_000,
      action: 'SWEEP',
      is_active: true,
      trigger_count: 0,
    });
    await cli.run(['credit', main, '600000', '--narration', 'salary']);
    expect((await cli.json(['wallets', 'get', main])).balance).toBe(600_000);
    await cli.run(['credit', main, '600000', '--narration', 'salary']);
    expect((await cli.json(['wallets', 'get', main])).balance).toBe(0);
    expect((await cli.json(['wallets', 'get', savings])).balance).toBe(1_200_000);
    const listed = await cli.json(['agents', 'list', '--wallet', main]);
    expect(listed.items).toEqual([expect.objectContaining({ id: agent.id, trigger_count: 1 })]);
    const runs = await cli.json(['agents', 'runs', agent.id]);
    expect(runs.items).toEqual([
      expect.objectContaining({
        outcome: 'DONE',
        reason: 'balance crossed above 1000000 (600000 → 1200000)',
        effect: `moved 1200000 to wallet ${savings}`,
      }),
    ]);
    const sweep = await cli.json(['transactions', 'get', runs.items[0].transaction_id]);
    expect(sweep).toMatchObject({ type: 'DEBIT', amount: 1_200_000, agent_id: agent.id });
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });

  it('a lock on a large credit, then a transfer is refused with 403, then unlocked', async () => {
    const w = await createWalletWithCli(cli, 'lockme');
    const other = await createWalletWithCli(cli, 'elsewhere');
    const lock = await cli.json([
      'agents',
      'create',
      w,
      '--name',
      'Big credit',
      '--trigger',
      'ON_CREDIT_AMOUNT_ABOVE',
      '--threshold',
      '5000000',
      '--action',
      'LOCK_WALLET',
    ]);
    await cli.run(['credit', w, '6000000', '--narration', 'salary']);
    const refused = await cli.run(['transfer', w, other, '100']);
    expect([refused.exitCode, refused.stderr]).toEqual([
      1,
      // The request's id, the same in every run: the sandbox's 21st request of this developer.
      'Error [TRANSFERS_DISABLED]: transfers out of this wallet are disabled (allow_transfers_out is false) (request req_00000021)\n',
    ]);
    await cli.run(['agents', 'toggle', w, lock.id, '--off']);
    await cli.run(['wallets', 'unlock', w]);
    expect((await cli.run(['transfer', w, other, '100'])).exitCode).toBe(0);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });
});
