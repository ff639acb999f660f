import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/client/errors.js';
import { runResolve } from '../../src/commands/banks/resolve.js';
import { reportError } from '../../src/cli/errors.js';
import { runGet } from '../../src/commands/transactions/get.js';
import { runTransfer } from '../../src/commands/transfer.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { commandLines } from '../../src/main/program.js';
import { captureIo, refusalLine } from '../helpers/io.js';
import { createWallet, useSandbox, balanceOf } from '../helpers/sandbox.js';

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

describe('ledger transfer --bank', () => {
  it('on a terminal shows the resolved name, fee and total, and sends nothing when the answer is no', async () => {
    const w = await createWallet(t, 1_000_000);
    prompts.answer = false;
    const c = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, env: { NO_COLOR: '1' } });
    await expect(runTransfer(c.io, w.id, GTB, '600000', { bank: '058' })).rejects.toThrow(
      new UsageError('transfer cancelled: nothing was sent'),
    );
    expect(prompts.asked).toEqual(['Send this transfer?']);
    const name = (await t.call('POST', '/v1/banks/resolve', { account_number: GTB, bank_code: '058' })).body.data
      .account_name;
    expect(c.stderr()).toBe(
      `To      ${name} · ${GTB} · Guaranty Trust Bank (058)\nAmount  600000 (₦6,000.00)\nFee     2500 (₦25.00)\nTotal   602500 (₦6,025.00)\n`,
    );
    expect(await balanceOf(t, w.id)).toBe(1_000_000);
  });

  it('fits a narrow terminal: the recipient line breaks at a space under its value', async () => {
    const w = await createWallet(t, 1_000_000);
    prompts.answer = false;
    const c = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, columns: 40, env: { NO_COLOR: '1' } });
    await expect(runTransfer(c.io, w.id, GTB, '600000', { bank: '058' })).rejects.toThrow(UsageError);
    const name = (await t.call('POST', '/v1/banks/resolve', { account_number: GTB, bank_code: '058' })).body.data
      .account_name;
    const lines = c.stderr().split('\n');
    expect(lines.filter((line) => line.length > 40)).toEqual([]);
    expect(
      lines
        .slice(0, lines.indexOf(lines.find((l) => l.startsWith('Amount'))!))
        .join(' ')
        .replace(/ +/g, ' '),
    ).toBe(`To ${name} · ${GTB} · Guaranty Trust Bank (058)`);
    expect(lines.find((l) => l.startsWith('Amount'))).toBe('Amount  600000 (₦6,000.00)');
  });

  it('sends after a yes, and never asks with --yes or without a terminal', async () => {
    const w = await createWallet(t, 1_000_000);
    prompts.answer = true;
    const tty = captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true });
    await runTransfer(tty.io, w.id, GTB, '1000', { bank: '058' });
    expect(JSON.parse(tty.stdout())).toMatchObject({ status: 'PENDING', fee: 1_000, new_balance: 998_000 });
    expect(prompts.asked).toHaveLength(1);
    await runTransfer(
      captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true }).io,
      w.id,
      GTB,
      '1000',
      { bank: '058', yes: true },
    );
    await runTransfer(
      captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: false }).io,
      w.id,
      GTB,
      '1000',
      { bank: '058' },
    );
    expect(prompts.asked).toHaveLength(1);
    expect(await balanceOf(t, w.id)).toBe(994_000);
  });

  it("`transactions get` and `sandbox payouts settle` name a payout's bank, and --json stays the API's transaction", async () => {
    const w = await createWallet(t, 1_000_000);
    const payout = (
      await t.call('POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: GTB,
        destination_bank_code: '058',
        amount: 1_000,
      })
    ).body.data;
    const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');
    for (const tty of [false, true]) {
      const c = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, tty });
      await runGet(c.io, payout.transaction_id);
      expect(plain(c.stdout())).toContain(`Destination       ${GTB}\nDestination bank  Guaranty Trust Bank (058)\n`);
    }
    const json = captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key });
    await runGet(json.io, payout.transaction_id);
    expect(json.stdout()).toBe(
      `${JSON.stringify((await t.call('GET', `/v1/transactions/${payout.transaction_id}`)).body.data, null, 2)}\n`,
    );
    let settled = '';
    const exit = await commandLines.run(['sandbox', 'payouts', 'settle', payout.transaction_id], [], {
      sources: {
        stdout: { write: (s: string) => (settled += s) },
        stderr: { write: () => {} },
        env: { LEDGER_BASE_URL: t.baseUrl!, LEDGER_API_KEY: t.key },
        cwd: '/nonexistent',
      },
      exitCode: 0,
    });
    expect(exit).toBe(0);
    expect(settled).toContain('Status            SETTLED\n');
    expect(settled).toContain('Destination bank  Guaranty Trust Bank (058)\n');
  });

  it('a number that fails the check digit names the bank it fails for', async () => {
    const error = await runResolve(captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key }).io, '0123456789', '058').catch(
      (e: unknown) => e,
    );
    let stderr = '';
    expect(reportError(error, { write: (s: string) => (stderr += s) })).toBe(1);
    expect(stderr).toEqual(
      refusalLine(
        'Error [ACCOUNT_NOT_FOUND]: account 0123456789 at Guaranty Trust Bank (058) could not be resolved: ' +
          "0123456789 fails this bank's NUBAN check digit, so it cannot be an account there (a mistyped digit?)\n",
      ),
    );
  });

  it('does not ask for an internal transfer', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    await runTransfer(
      captureIo({ quiet: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true }).io,
      a.id,
      b.id,
      '500',
      {},
    );
    expect(prompts.asked).toEqual([]);
    expect(await balanceOf(t, b.id)).toBe(500);
  });
});
