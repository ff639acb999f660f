import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/client/errors.js';
import { runTransfer } from '../../src/commands/transfer.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

const prompts = vi.hoisted(() => ({ answer: true, asked: [] as string[] }));
vi.mock('@inquirer/prompts', () => ({
  confirm: async ({ message }: { message: string }) => {
    prompts.asked.push(message);
    return prompts.answer;
  },
  input: async () => '',
}));

const GTB = makeNuban('058', '099887766');
const t = useSandbox({ scope: 'all', listen: true });
beforeEach(() => {
  prompts.asked = [];
});

const balance = async (id: string) => (await t.call('GET', `/v1/wallets/${id}`)).body.data.balance;

describe('ledger transfer --bank', () => {
  it('on a terminal shows the resolved name, fee and total, and sends nothing when the answer is no', async () => {
    const w = await createWallet(t, 1_000_000);
    prompts.answer = false;
    const c = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, env: { NO_COLOR: '1' } });
    await expect(runTransfer(c.io, w.id, GTB, '600000', { bank: '058' })).rejects.toThrow(new UsageError('transfer cancelled: nothing was sent'));
    expect(prompts.asked).toEqual(['Send this transfer?']);
    const name = (await t.call('POST', '/v1/banks/resolve', { account_number: GTB, bank_code: '058' })).body.data.account_name;
    expect(c.stderr()).toBe(
      `To      ${name} · ${GTB} · bank 058\nAmount  600000 (₦6,000.00)\nFee     2500 (₦25.00)\nTotal   602500 (₦6,025.00)\n`,
    );
    expect(await balance(w.id)).toBe(1_000_000);
  });

  it('sends after a yes, and never asks with --yes or without a terminal', async () => {
    const w = await createWallet(t, 1_000_000);
    prompts.answer = true;
    const tty = captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true });
    await runTransfer(tty.io, w.id, GTB, '1000', { bank: '058' });
    expect(JSON.parse(tty.stdout())).toMatchObject({ status: 'PENDING', fee: 1_000, new_balance: 998_000 });
    expect(prompts.asked).toHaveLength(1);
    await runTransfer(captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true }).io, w.id, GTB, '1000', { bank: '058', yes: true });
    await runTransfer(captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: false }).io, w.id, GTB, '1000', { bank: '058' });
    expect(prompts.asked).toHaveLength(1);
    expect(await balance(w.id)).toBe(994_000);
  });

  it('does not ask for an internal transfer', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    await runTransfer(captureIo({ quiet: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true }).io, a.id, b.id, '500', {});
    expect(prompts.asked).toEqual([]);
    expect(await balance(b.id)).toBe(500);
  });
});
