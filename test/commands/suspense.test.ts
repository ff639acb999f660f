import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/http.js';
import { ApiError, UsageError } from '../../src/client/errors.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { runFlag } from '../../src/commands/suspense/flag.js';
import { runNote } from '../../src/commands/suspense/note.js';
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
  offered: [] as string[],
}));
vi.mock('@inquirer/prompts', () => ({
  select: async ({ message, choices }: { message: string; choices: { name: string; value: unknown }[] }) => {
    ui.asked.push(`select: ${message}`);
    return ui.select.shift()!(choices);
  },
  search: async ({
    message,
    source,
  }: {
    message: string;
    source: (term: string) => Promise<{ name: string; value: unknown }[]>;
  }) => {
    ui.asked.push(`search: ${message}`);
    const term = ui.search.shift()!;
    // What the first search of a run shows before anything is typed (the item picker's list).
    if (ui.offered.length === 0) ui.offered = (await source('')).map((f) => f.name);
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
  Object.assign(ui, { asked: [], select: [], search: [], input: [], confirm: [], searched: [], offered: [] });
  await t.call('POST', '/sandbox/reset');
});

const io = (flags: Record<string, unknown> = {}, tty = false) =>
  captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, tty, env: { NO_COLOR: '1' } });
async function hold(amount: number, narration = 'asdfgh') {
  const w = await createWallet(t);
  return (await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount, narration }))
    .body.data.suspense_item;
}

describe('ledger suspense list and show', () => {
  it('lists with the amount in naira and the age on the sandbox clock', async () => {
    const item = await hold(123_456);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 7_200 });
    const c = io({ format: 'table' });
    await runList(c.io, { status: 'pending' });
    expect(c.stdout()).toContain(item.id);
    expect(c.stdout()).toMatch(
      /│ 2h +│ 123456 \(₦1,234\.56\) │ \S+ +│ AI_LOW_CONFIDENCE │ PENDING │ SANDBOX SENDER │ asdfgh +│/,
    );
    const json = io({ json: true });
    await runList(json.io, {});
    expect(JSON.parse(json.stdout())).toEqual((await t.call('GET', '/v1/suspense')).body.data);
    await expect(runList(io().io, { reason: 'LOST' })).rejects.toThrow(UsageError);
  });

  it('at 80 columns keeps the status (a resolved item must not read as pending) and says the ids are shortened', async () => {
    const item = await hold(7_000);
    await hold(8_000);
    await t.call('POST', `/v1/suspense/${item.id}/resolve`, { action: 'DISMISS', note: 'duplicate' });
    const narrow = captureIo(
      { format: 'table' },
      { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1', COLUMNS: '80' } },
    );
    await runList(narrow.io, {});
    const lines = narrow.stdout().split('\n');
    expect(lines.filter((l) => l.startsWith('│')).map((l) => /│ (PENDING|RESOLVED|DISMISSED) +│/.exec(l)?.[1])).toEqual(
      [undefined, 'RESOLVED', 'PENDING'],
    );
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // The age and the customer stay; the sender and the narration give way, and the footer says so.
    expect(lines[1]).toMatch(/^│ ID +│ Age │ Amount +│ Customer +│ Reason +│ Status +│$/);
    expect(narrow.stdout()).toContain('ids shortened, Sender and Narration left out to fit: --wide shows all\n');
    const wide = captureIo(
      { wide: true, format: 'table' },
      { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1', COLUMNS: '80' } },
    );
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

  it("people get the sender's bank by its name from the bank list, --json the API's code", async () => {
    const w = await createWallet(t);
    const held = async (sender_bank_code: string) =>
      (
        await t.call('POST', '/sandbox/inbound-transfers', {
          account_number: w.account_number,
          amount: 4_000,
          narration: 'asdfgh',
          sender_name: 'Ada Obi',
          sender_account: '0123456785',
          sender_bank_code,
        })
      ).body.data.suspense_item;
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
    expect(json.stdout()).toBe(
      `${JSON.stringify((await t.call('GET', `/sandbox/suspense/${gtb.id}`)).body.data, null, 2)}\n`,
    );
  });
});

describe('ledger suspense resolve', () => {
  it('on a terminal: pick the item, the action and the wallet by search, see it, confirm, and the money moves', async () => {
    await hold(1_000, 'SANDBOX-RISK');
    const wanted = await hold(2_500);
    const target = await createWallet(t, 0, {
      customer_reference: 'target-ref',
      first_name: 'Kemi',
      last_name: 'Bello',
    });
    ui.select.push((choices) => choices.find((c) => c.name.startsWith('CREDIT_WALLET'))!.value);
    ui.search.push('₦25.00', 'kemi');
    ui.input.push('called the customer');
    ui.confirm.push(true);
    const c = io({ json: true }, true);
    await runResolve(c.io, undefined, {});
    expect(ui.asked).toEqual([
      'search: Which held payment? (type to filter)',
      'select: What should happen to it?',
      'search: Credit which wallet? (type a name, account number or reference)',
      'input: Note (optional):',
      'confirm: Resolve this 2500 (₦25.00) payment?',
    ]);
    expect(ui.searched).toEqual([expect.stringContaining('SANDBOX / KEMI BELLO')]);
    expect(c.stderr()).toContain(`Suspense item   ${wanted.id}`);
    expect(c.stderr()).toContain(
      `CREDIT_WALLET → wallet ${target.id} (Kemi Bello, target-ref) · note "called the customer"`,
    );
    expect(JSON.parse(c.stdout())).toMatchObject({ action: 'CREDIT_WALLET', transaction_id: expect.any(String) });
    expect((await t.call('GET', `/v1/wallets/${target.id}`)).body.data.balance).toBe(2_500);
    expect((await t.call('GET', `/sandbox/suspense/${wanted.id}`)).body.data).toMatchObject({
      status: 'RESOLVED',
      resolution_note: 'called the customer',
    });
  });

  it('moves nothing when the person says no', async () => {
    const item = await hold(900);
    ui.confirm.push(false);
    await expect(runResolve(io({}, true).io, item.id, { action: 'DISMISS', note: 'x' })).rejects.toThrow(
      new UsageError('resolution cancelled: nothing moved'),
    );
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
  });

  it('without a terminal: missing flags are usage errors and nothing is asked', async () => {
    const item = await hold(900);
    await expect(runResolve(io().io, undefined, { action: 'DISMISS' })).rejects.toThrow(
      new UsageError('missing <suspense_id> (no terminal to ask on)'),
    );
    await expect(runResolve(io().io, item.id, {})).rejects.toThrow(
      new UsageError('missing --action (no terminal to ask on)'),
    );
    await expect(runResolve(io().io, item.id, { action: 'credit_wallet' })).rejects.toThrow(
      new UsageError('missing --target-wallet for CREDIT_WALLET (no terminal to ask on)'),
    );
    await expect(runResolve(io().io, item.id, { action: 'KEEP' })).rejects.toThrow(UsageError);
    expect(ui.asked).toEqual([]);
    const c = io({ quiet: true });
    await runResolve(c.io, item.id, { action: 'dismiss' });
    expect(c.stdout()).toBe('DISMISS\n');
  });

  it('at 80 columns names are cut to fit and values continue under themselves', async () => {
    // A long name must leave room for the narrations that tell one customer's payments apart, and the item
    // and the summary must not break mid-value.
    const w = await createWallet(t, 0, { first_name: 'Chukwuemeka Obiora-Nwankwo', last_name: 'Enterprises Limited' });
    const sender = {
      sender_name: 'Chukwuemeka Obiora-Nwankwo Enterprises Limited',
      sender_account: '0123456785',
      sender_bank_code: '058',
    };
    for (const narration of ['asdf', 'qwerty'])
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: w.account_number,
        amount: 12_345,
        narration,
        ...sender,
      });
    ui.select.push((choices) => choices.find((c) => c.name.startsWith('CREDIT_WALLET'))!.value);
    ui.search.push('qwerty', '');
    ui.input.push('called the customer back about the second of the two payments');
    ui.confirm.push(true);
    const person = captureIo(
      { json: true },
      { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, columns: 80, env: { NO_COLOR: '1' } },
    );
    await runResolve(person.io, undefined, {});
    const err = person.stderr();
    expect(ui.offered.map((name) => name.slice(name.indexOf('"')))).toEqual(['"asdf"', '"qwerty"']);
    expect(ui.offered[0]).toMatch(/^Chukwuemeka Obiora-Nwan…  ₦123\.45/);
    expect(err).toContain(
      `Sender          ${sender.sender_name} · 0123456785 ·\n                Guaranty Trust Bank (058)\n`,
    );
    expect(err).toContain(
      `\nCREDIT_WALLET → wallet ${w.id} (Chukwuemeka\n  Obiora-Nwankwo Enterprises Limited, ${w.customer_reference}) ` +
        '· note "called the customer back\n  about the second of the two payments"\n',
    );
    expect(err.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('says so when there is nothing to pick', async () => {
    await expect(runResolve(io({}, true).io, undefined, {})).rejects.toThrow(
      new UsageError('nothing to resolve: no PENDING or FLAGGED suspense items'),
    );
  });
});

describe('the picker of ledger suspense resolve', () => {
  it('labels each open item with the customer, the amount in naira, the age and the reason, oldest first', async () => {
    // The sender stands for the customer where no wallet is known; the account number is never shown.
    const ada = await createWallet(t, 0, { first_name: 'Ada', last_name: 'Obi', customer_reference: 'ada-1' });
    const kemi = await createWallet(t, 0, { first_name: 'Kemi', last_name: 'Bello', customer_reference: 'kemi-1' });
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: ada.account_number,
      amount: 700_000,
      narration: 'asdfgh',
      sender_name: 'TUNDE BAKARE',
    });
    await t.call('POST', '/sandbox/clock/advance', { seconds: 2 * 86_400 });
    await t.call('POST', '/v1/wallets/' + kemi.id + '/close');
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: kemi.account_number,
      amount: 1_250_000,
      narration: 'school fees',
      sender_name: 'MUSA DANJUMA',
    });
    await t.call('POST', '/sandbox/clock/advance', { seconds: 3 * 3_600 });
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: ada.account_number,
      amount: 5_000,
      narration: 'rent SANDBOX-RISK',
      sender_name: 'IFE OJO',
    });
    // A server that cannot list wallets (no /sandbox): the sender names the item instead.
    const items = (await t.call('GET', '/v1/suspense')).body.data.items;
    ui.search.push('');
    ui.select.push(() => 'DISMISS');
    ui.confirm.push(false);
    await expect(runResolve(io({}, true).io, undefined, {})).rejects.toThrow('resolution cancelled');
    expect(ui.offered).toEqual([
      'Ada Obi      ₦7,000.00   2d  AI_LOW_CONFIDENCE  "asdfgh"',
      'Kemi Bello  ₦12,500.00   3h  WALLET_CLOSED  "school fees"',
      'Ada Obi         ₦50.00   0s  AI_RISK_FLAG · FLAGGED  "rent SANDBOX-RISK"',
    ]);
    for (const item of items) expect(ui.offered.join('\n')).not.toContain(item.account_number);
    const walletless = vi.spyOn(ApiClient.prototype, 'sandbox').mockImplementation(async (method, path) => {
      if (path === '/sandbox/wallets') throw new ApiError(404, 'NOT_A_SANDBOX', 'no wallet list here');
      return ApiClient.prototype.request.call(t as never, method, path);
    });
    try {
      ui.offered = [];
      ui.search.push('');
      ui.select.push(() => 'DISMISS');
      await expect(runResolve(io({}, true).io, undefined, {})).rejects.toThrow('resolution cancelled');
    } finally {
      walletless.mockRestore();
    }
    expect(ui.offered.map((label) => label.split('  ')[0]!.trim())).toEqual([
      'TUNDE BAKARE',
      'MUSA DANJUMA',
      'IFE OJO',
    ]);
  });

  it('filters as you type: by the customer, the amount, the reason, or what the label does not show (sender, reference), every word in any order', async () => {
    const ada = await createWallet(t, 0, { first_name: 'Ada', last_name: 'Obi', customer_reference: 'ada-1' });
    const kemi = await createWallet(t, 0, { first_name: 'Kemi', last_name: 'Bello', customer_reference: 'kemi-1' });
    const send = async (account_number: string, amount: number, sender_name: string) =>
      (await t.call('POST', '/sandbox/inbound-transfers', { account_number, amount, narration: 'asdfgh', sender_name }))
        .body.data.suspense_item;
    await send(ada.account_number, 700_000, 'TUNDE BAKARE');
    const second = await send(kemi.account_number, 700_000, 'MUSA DANJUMA');
    await send(ada.account_number, 20_000, 'IFE OJO');
    const found = async (term: string) => {
      ui.search.push(term);
      ui.select.push(() => 'DISMISS');
      await expect(runResolve(io({}, true).io, undefined, {})).rejects.toThrow('resolution cancelled');
      return ui.searched.map((label) => label.split(/ {2,}/).slice(0, 2).join(' '));
    };
    expect(await found('ada')).toEqual(['Ada Obi ₦7,000.00', 'Ada Obi ₦200.00']);
    expect(await found('7,000')).toEqual(['Ada Obi ₦7,000.00', 'Kemi Bello ₦7,000.00']);
    expect(await found('7,000 ada')).toEqual(['Ada Obi ₦7,000.00']);
    expect(await found('musa')).toEqual(['Kemi Bello ₦7,000.00']);
    expect(await found('kemi-1')).toEqual(['Kemi Bello ₦7,000.00']);
    expect(await found(second.provider_reference)).toEqual(['Kemi Bello ₦7,000.00']);
    expect(await found('low_confidence')).toHaveLength(3);
  });
});

describe('a REFUND from ledger suspense resolve', () => {
  const sender = makeNuban('058', '555666777');
  const bankName = async () =>
    (await t.call('POST', '/v1/banks/resolve', { account_number: sender, bank_code: '058' })).body.data
      .account_name as string;
  const heldFrom = async (sender_name: string) => {
    const w = await createWallet(t);
    return (
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: w.account_number,
        amount: 9_000,
        narration: 'asdfgh',
        sender_name,
        sender_account: sender,
        sender_bank_code: '058',
      })
    ).body.data.suspense_item;
  };
  /** Every request the command sends, in order with the questions it asks. */
  const requests = () => {
    const original = ApiClient.prototype.request;
    return vi.spyOn(ApiClient.prototype, 'request').mockImplementation(function (
      this: ApiClient,
      method,
      path,
      options,
    ) {
      ui.asked.push(`request: ${method} ${path.split('?')[0]}`);
      return original.call(this, method, path, options);
    });
  };

  it('runs name enquiry on the sender before asking, and warns in words when the payment names another', async () => {
    // The question names the account as the bank does.
    const name = await bankName();
    const item = await heldFrom('OBI ADA NKECHI');
    ui.select.push(() => 'REFUND');
    ui.confirm.push(false);
    const spy = requests();
    try {
      await expect(runResolve(io({}, true).io, item.id, { note: 'sender asked' })).rejects.toThrow(
        'resolution cancelled: nothing moved',
      );
    } finally {
      spy.mockRestore();
    }
    const asked = ui.asked.filter((line) => !line.startsWith('request: GET'));
    expect(asked).toEqual([
      'select: What should happen to it?',
      'request: POST /v1/banks/resolve',
      `confirm: Names differ: the bank names account ${sender} "${name}", not "OBI ADA NKECHI" as the payment's sender: ` +
        `the money would go to ${name}. Refund 9000 (₦90.00) to ${name} (${sender} at 058) anyway?`,
    ]);
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
  });

  it('asks plainly when the names have the same words in another order or case, and the result names the account', async () => {
    const name = await bankName();
    const item = await heldFrom(name.split(' ').reverse().join(' ').toLowerCase());
    ui.select.push(() => 'REFUND');
    ui.confirm.push(true);
    const c = io({}, true);
    await runResolve(c.io, item.id, { note: 'sender asked' });
    expect(ui.asked.at(-1)).toBe(`confirm: Refund 9000 (₦90.00) to ${name} (${sender} at 058)?`);
    expect(c.stdout()).toContain(`refunded 9000 (₦90.00) to ${name}`);
    expect(c.stderr()).not.toContain('Warning');
  });

  it('without a terminal, or with --yes, prints the warning on stderr and refunds; --json keeps stdout to the data', async () => {
    const name = await bankName();
    for (const [tty, flags] of [
      [false, { json: true }],
      [true, {}],
    ] as const) {
      const item = await heldFrom('OLADIPO ADAEZE NOT');
      const c = io(flags, tty);
      await runResolve(c.io, item.id, { action: 'REFUND', yes: true });
      expect(c.stderr()).toContain(
        `Warning: the bank names account ${sender} "${name}", not "OLADIPO ADAEZE NOT" as the payment's sender: the money would go to ${name}.\n`,
      );
      if (flags.json) expect(JSON.parse(c.stdout())).toMatchObject({ action: 'REFUND' });
    }
    expect(ui.asked).toEqual([]);
  });

  it('says before asking anything more when name enquiry fails: the refund cannot go there, and nothing moves', async () => {
    const w = await createWallet(t);
    const item = (
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: w.account_number,
        amount: 500,
        narration: 'asdfgh',
        sender_account: '0000000000',
        sender_bank_code: '058',
      })
    ).body.data.suspense_item;
    ui.select.push(() => 'REFUND');
    const failed = runResolve(io({}, true).io, item.id, {});
    await expect(failed).rejects.toThrow(ApiError);
    await expect(failed).rejects.toThrow(
      /^name enquiry on the sender's account 0000000000 at bank 058 failed \(.+\), so a REFUND cannot go there: nothing moved; CREDIT_WALLET or DISMISS it$/,
    );
    expect(ui.asked).toEqual(['select: What should happen to it?']);
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
  });
});

describe('ledger suspense flag and note', () => {
  it('flags with a note asked on a terminal, notes without resolving, and show lists the notes', async () => {
    const item = await hold(4_000);
    ui.input.push('sender says it is not theirs');
    const flagged = io({}, true);
    await runFlag(flagged.io, item.id, {});
    expect(ui.asked).toEqual(['input: Why does it need escalating?']);
    expect(flagged.stdout()).toContain('Status          FLAGGED\n');
    const noted = io({ json: true });
    await runNote(noted.io, item.id, 'left a voicemail', {});
    expect(JSON.parse(noted.stdout())).toEqual((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data);
    const shown = io();
    await runShow(shown.io, item.id);
    const time = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;
    expect(shown.stdout()).toMatch(
      new RegExp(
        `\nNotes {11}${time} · SANDBOX · flagged: "sender says it is not theirs"\n {16}${time} · SANDBOX · "left a voicemail"\n`,
      ),
    );
  });

  it('refuses a bad note before sending (exit 2), and a missing one without a terminal', async () => {
    const item = await hold(4_000);
    await expect(runFlag(io().io, item.id, {})).rejects.toThrow(
      new UsageError('missing --note (no terminal to ask on)'),
    );
    await expect(runFlag(io().io, item.id, { note: 'two\nlines' })).rejects.toThrow(
      /^--note must not contain control characters/,
    );
    await expect(runNote(io().io, item.id, 'x'.repeat(501), {})).rejects.toThrow(
      new UsageError('<text> must be at most 500 characters'),
    );
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data).toMatchObject({
      status: 'PENDING',
      notes: [],
    });
  });
});
