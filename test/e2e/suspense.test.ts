import { describe, expect, it } from 'vitest';
import { useSandboxCli } from '../helpers/cli.js';

const cli = useSandboxCli();

const json = (args: string[]) => cli.json(args);
const wallet = async (ref: string) =>
  (await cli.run(['wallets', 'create', '--customer-reference', ref, '--first-name', 'Sus', '--last-name', ref, '--email', `${ref}@x.ng`, '-q'])).stdout.trim();

describe('the suspense queue from the command line', () => {
  it('close a wallet, credit it, find the item, resolve it to another wallet: balance, transaction and audit are right', async () => {
    const closed = await wallet('closed');
    const target = await wallet('target');
    await cli.run(['wallets', 'close', closed]);
    const credit = await json(['credit', closed, '420000', '--narration', 'rent for June', '--sender-name', 'FEMI ADE']);
    expect(credit.outcome).toBe('SUSPENDED');

    const list = await json(['suspense', 'list', '--status', 'PENDING']);
    expect(list.total).toBe(1);
    const item = list.items[0];
    expect(item).toMatchObject({ id: credit.suspense_item.id, reason: 'WALLET_CLOSED', status: 'PENDING', amount: 420_000, sender_name: 'FEMI ADE' });

    const resolved = await json(['suspense', 'resolve', item.id, '--action', 'CREDIT_WALLET', '--target-wallet', target, '--note', 'moved to new wallet']);
    expect(resolved).toEqual({ message: `credited 420000 kobo to wallet ${target}`, action: 'CREDIT_WALLET', transaction_id: expect.any(String) });
    expect((await json(['wallets', 'get', target])).balance).toBe(420_000);
    const listed = await json(['transactions', 'list', target]);
    expect(listed.items).toEqual([
      expect.objectContaining({ id: resolved.transaction_id, type: 'CREDIT', amount: 420_000, sender_name: 'FEMI ADE', raw_narration: 'rent for June', status: 'SETTLED' }),
    ]);
    const again = await cli.run(['suspense', 'resolve', item.id, '--action', 'DISMISS']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/^Error \[SUSPENSE_ALREADY_RESOLVED\]: /);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });

  it('holds low-confidence and risky payments, shows them, and refuses to ask without a terminal', async () => {
    const w = await wallet('held');
    expect((await json(['credit', w, '1000', '--narration', 'SANDBOX-LOW-CONFIDENCE'])).suspense_item.reason).toBe('AI_LOW_CONFIDENCE');
    const risky = await json(['credit', w, '2000', '--narration', 'rent SANDBOX-RISK', '--sender-account', '0690000032', '--sender-bank-code', '044']);
    expect(risky.suspense_item).toMatchObject({ reason: 'AI_RISK_FLAG', status: 'FLAGGED' });
    const shown = await cli.run(['suspense', 'show', risky.suspense_item.id]);
    expect(shown.stdout).toContain('flags SUSPECTED_FRAUD');
    const missing = await cli.run(['suspense', 'resolve']);
    expect([missing.exitCode, missing.stderr]).toEqual([2, 'Error [USAGE]: missing <suspense_id> (no terminal to ask on)\n']);
    const refund = await json(['suspense', 'resolve', risky.suspense_item.id, '--action', 'REFUND']);
    expect(refund.action).toBe('REFUND');
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
  });
});
