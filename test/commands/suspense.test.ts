import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/client/errors.js';
import { runList } from '../../src/commands/suspense/list.js';
import { runResolve } from '../../src/commands/suspense/resolve.js';
import { runShow } from '../../src/commands/suspense/show.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

/** The prompts module mocked: each prompt kind answers from its queue and records what was asked. */
const ui = vi.hoisted(() => ({
  asked: [] as string[],
  select: [] as ((choices: { name: string; value: unknown }[]) => unknown)[],
  search: [] as string[],
  input: [] as string[],
  confirm: [] as boolean[],
  searched: [] as string[],
}));
vi.mock('@inquirer/prompts', () => ({
  select: async ({ message, choices }: { message: string; choices: { name: string; value: unknown }[] }) => {
    ui.asked.push(`select: ${message}`);
    return ui.select.shift()!(choices);
  },
  search: async ({ message, source }: { message: string; source: (term: string) => Promise<{ name: string; value: unknown }[]> }) => {
    ui.asked.push(`search: ${message}`);
    const term = ui.search.shift()!;
    const found = await source(term);
    ui.searched = found.map((f) => f.name);
    return found[0]!.value;
  },
  input: async ({ message }: { message: string }) => {
    ui.asked.push(`input: ${message}`);
    return ui.input.shift() ?? '';
  },
  confirm: async ({ message }: { message: string }) => {
    ui.asked.push(`confirm: ${message}`);
    return ui.confirm.shift() ?? false;
  },
}));

const t = useSandbox({ scope: 'all', listen: true });
beforeEach(async () => {
  Object.assign(ui, { asked: [], select: [], search: [], input: [], confirm: [], searched: [] });
  await t.call('POST', '/sandbox/reset');
});

const io = (flags: Record<string, unknown> = {}, tty = false) => captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, tty, env: { NO_COLOR: '1' } });
async function hold(amount: number, narration = 'asdfgh') {
  const w = await createWallet(t);
  return (await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount, narration })).body.data.suspense_item;
}

describe('ledger suspense list and show', () => {
  it('lists with the amount in naira and the age on the sandbox clock', async () => {
    const item = await hold(123_456);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 7_200 });
    const c = io({ format: 'table' });
    await runList(c.io, { status: 'pending' });
    expect(c.stdout()).toContain(item.id);
    expect(c.stdout()).toMatch(/│ 2h +│ 123456 \(₦1,234\.56\) │ \S+ +│ AI_LOW_CONFIDENCE │ PENDING │ SANDBOX SENDER │ asdfgh +│/);
    const json = io({ json: true });
    await runList(json.io, {});
    expect(JSON.parse(json.stdout())).toEqual((await t.call('GET', '/v1/suspense')).body.data);
    await expect(runList(io().io, { reason: 'LOST' })).rejects.toThrow(UsageError);
  });

  it('at 80 columns keeps the status (a resolved item must not read as pending) and says the ids are shortened', async () => {
    const item = await hold(7_000);
    await hold(8_000);
    await t.call('POST', `/v1/suspense/${item.id}/resolve`, { action: 'DISMISS', note: 'duplicate' });
    const narrow = captureIo({ format: 'table' }, { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1', COLUMNS: '80' } });
    await runList(narrow.io, {});
    const lines = narrow.stdout().split('\n');
    expect(lines.filter((l) => l.startsWith('│')).map((l) => /│ (PENDING|RESOLVED|DISMISSED) +│/.exec(l)?.[1])).toEqual([undefined, 'RESOLVED', 'PENDING']);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // The age and the customer stay; the sender and the narration give way, and the footer says so.
    expect(lines[1]).toMatch(/^│ ID +│ Age │ Amount +│ Customer +│ Reason +│ Status +│$/);
    expect(narrow.stdout()).toContain('ids shortened, Sender and Narration left out to fit: --wide shows all\n');
    const wide = captureIo({ wide: true, format: 'table' }, { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1', COLUMNS: '80' } });
    await runList(wide.io, {});
    expect(wide.stdout()).toContain(item.id);
    expect(wide.stdout()).not.toContain('to fit');
  });

  it('shows the whole item with the analysis and the payload pretty-printed', async () => {
    const item = await hold(5_000);
    const c = io();
    await runShow(c.io, item.id);
    expect(c.stdout()).toContain('Analysis        unknown (Uncategorised), confidence 0.3, flags UNCLEAR_NARRATION');
    expect(c.stdout()).toContain('Raw payload\n  {\n    "account_number": ');
    expect(c.stdout()).toContain('    "amount": 5000,');
  });

  it('seen: the sender\'s bank was "bank 058"; people get its name from the bank list, --json the API\'s code', async () => {
    const w = await createWallet(t);
    const held = async (sender_bank_code: string) =>
      (await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 4_000, narration: 'asdfgh', sender_name: 'Ada Obi', sender_account: '0123456785', sender_bank_code })).body.data.suspense_item;
    const gtb = await held('058');
    for (const tty of [false, true]) {
      const c = io({}, tty);
      await runShow(c.io, gtb.id);
      expect(c.stdout()).toContain('Sender          Ada Obi · 0123456785 · Guaranty Trust Bank (058)\n');
    }
    // A code the list does not have is still shown, as a code.
    const unlisted = io();
    await runShow(unlisted.io, (await held('999')).id);
    expect(unlisted.stdout()).toContain('Sender          Ada Obi · 0123456785 · bank 999\n');
    const json = io({ json: true });
    await runShow(json.io, gtb.id);
    expect(json.stdout()).toBe(`${JSON.stringify((await t.call('GET', `/sandbox/suspense/${gtb.id}`)).body.data, null, 2)}\n`);
  });
});

describe('ledger suspense resolve', () => {
  it('on a terminal: pick the item, the action and the wallet by search, see it, confirm, and the money moves', async () => {
    await hold(1_000, 'SANDBOX-RISK');
    const wanted = await hold(2_500);
    const target = await createWallet(t, 0, { customer_reference: 'target-ref', first_name: 'Kemi', last_name: 'Bello' });
    ui.select.push((choices) => choices.find((c) => c.name.includes('₦25.00'))!.value, (choices) => choices.find((c) => c.name.startsWith('CREDIT_WALLET'))!.value);
    ui.search.push('kemi');
    ui.input.push('called the customer');
    ui.confirm.push(true);
    const c = io({ json: true }, true);
    await runResolve(c.io, undefined, {});
    expect(ui.asked).toEqual([
      'select: Which held payment?',
      'select: What should happen to it?',
      'search: Credit which wallet? (type a name, account number or reference)',
      'input: Note (optional):',
      'confirm: Resolve this 2500 (₦25.00) payment?',
    ]);
    expect(ui.searched).toEqual([expect.stringContaining('SANDBOX / KEMI BELLO')]);
    expect(c.stderr()).toContain(`Suspense item   ${wanted.id}`);
    expect(c.stderr()).toContain(`CREDIT_WALLET → wallet ${target.id} · note "called the customer"`);
    expect(JSON.parse(c.stdout())).toMatchObject({ action: 'CREDIT_WALLET', transaction_id: expect.any(String) });
    expect((await t.call('GET', `/v1/wallets/${target.id}`)).body.data.balance).toBe(2_500);
    expect((await t.call('GET', `/sandbox/suspense/${wanted.id}`)).body.data).toMatchObject({ status: 'RESOLVED', resolution_note: 'called the customer' });
  });

  it('moves nothing when the person says no', async () => {
    const item = await hold(900);
    ui.confirm.push(false);
    await expect(runResolve(io({}, true).io, item.id, { action: 'DISMISS', note: 'x' })).rejects.toThrow(new UsageError('resolution cancelled: nothing moved'));
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
  });

  it('without a terminal: missing flags are usage errors and nothing is asked', async () => {
    const item = await hold(900);
    await expect(runResolve(io().io, undefined, { action: 'DISMISS' })).rejects.toThrow(new UsageError('missing <suspense_id> (no terminal to ask on)'));
    await expect(runResolve(io().io, item.id, {})).rejects.toThrow(new UsageError('missing --action (no terminal to ask on)'));
    await expect(runResolve(io().io, item.id, { action: 'credit_wallet' })).rejects.toThrow(new UsageError('missing --target-wallet for CREDIT_WALLET (no terminal to ask on)'));
    await expect(runResolve(io().io, item.id, { action: 'KEEP' })).rejects.toThrow(UsageError);
    expect(ui.asked).toEqual([]);
    const c = io({ quiet: true });
    await runResolve(c.io, item.id, { action: 'dismiss' });
    expect(c.stdout()).toBe('DISMISS\n');
  });

  it('seen at 80 columns: a long sender name hid the narrations that tell its payments apart, and the item and the summary broke mid-value; now the narration comes first and values continue under themselves', async () => {
    const w = await createWallet(t);
    const sender = { sender_name: 'Chukwuemeka Obiora-Nwankwo Enterprises Limited', sender_account: '0123456785', sender_bank_code: '058' };
    for (const narration of ['asdf', 'qwerty']) await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 12_345, narration, ...sender });
    let offered: string[] = [];
    ui.select.push(
      (choices) => {
        offered = choices.map((c) => c.name);
        return choices[1]!.value;
      },
      (choices) => choices.find((c) => c.name.startsWith('CREDIT_WALLET'))!.value,
    );
    ui.search.push('');
    ui.input.push('called the customer back about the second of the two payments');
    ui.confirm.push(true);
    const person = captureIo({ json: true }, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, columns: 80, env: { NO_COLOR: '1' } });
    await runResolve(person.io, undefined, {});
    const err = person.stderr();
    expect(offered.map((name) => name.slice(name.indexOf('"')))).toEqual([expect.stringMatching(/^"asdf" · Chukw/), expect.stringMatching(/^"qwerty" · Chukw/)]);
    expect(err).toContain(`Sender          ${sender.sender_name} · 0123456785 ·\n                Guaranty Trust Bank (058)\n`);
    expect(err).toContain(`CREDIT_WALLET → wallet ${w.id} · note "called the\n  customer back about the second of the two payments"\n`);
    expect(err.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('says so when there is nothing to pick', async () => {
    await expect(runResolve(io({}, true).io, undefined, {})).rejects.toThrow(new UsageError('nothing to resolve: no PENDING or FLAGGED suspense items'));
  });
});
