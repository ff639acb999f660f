import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCreate as runCreateAgent } from '../../src/commands/agents/create.js';
import { runRuns } from '../../src/commands/agents/runs.js';
import { runCredit } from '../../src/commands/credit.js';
import { runResolve } from '../../src/commands/suspense/resolve.js';
import { runShow } from '../../src/commands/suspense/show.js';
import { runList as runTransactions } from '../../src/commands/transactions/list.js';
import { runClose } from '../../src/commands/wallets/close.js';
import { runCreate as runCreateWallet } from '../../src/commands/wallets/create.js';
import { runGet } from '../../src/commands/wallets/get.js';
import { runShow as runShowLog } from '../../src/commands/webhooks/show.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

/**
 * The prompts module mocked as a patient person: each answer in the queue is tried against the
 * prompt's own validate, and a refused one is recorded with its reason before the next is tried.
 */
const ui = vi.hoisted(() => ({
  asked: [] as string[],
  answers: [] as unknown[],
  refused: [] as string[],
  choices: [] as { name: string; value: unknown }[][],
  defaults: [] as unknown[],
  shownBeforeTyping: [] as string[][],
}));
vi.mock('@inquirer/prompts', () => {
  const typed = async ({ message, validate }: { message: string; validate?: (t: string) => unknown }) => {
    ui.asked.push(`input: ${message}`);
    for (;;) {
      const answer = String(ui.answers.shift());
      const verdict = validate ? await validate(answer) : true;
      if (verdict === true) return answer;
      ui.refused.push(`${answer} → ${String(verdict)}`);
    }
  };
  return {
    input: typed,
    confirm: async ({ message }: { message: string }) => {
      ui.asked.push(`confirm: ${message}`);
      return ui.answers.shift() as boolean;
    },
    select: async ({
      message,
      choices,
      default: preselect,
    }: {
      message: string;
      choices: { name: string; value: unknown }[];
      default?: unknown;
    }) => {
      ui.asked.push(`select: ${message}`);
      ui.choices.push(choices);
      ui.defaults.push(preselect);
      const pick = ui.answers.shift() as (c: { name: string; value: unknown }[]) => unknown;
      return pick(choices);
    },
    search: async ({
      message,
      source,
    }: {
      message: string;
      source: (term: string | undefined) => Promise<{ name: string; value: unknown }[]>;
    }) => {
      ui.asked.push(`search: ${message}`);
      ui.shownBeforeTyping.push((await source(undefined)).map((c) => c.name));
      const term = ui.answers.shift() as string | undefined;
      return (await source(term))[0]!.value;
    },
  };
});

const t = useSandbox({ scope: 'all', listen: true });
beforeEach(async () => {
  Object.assign(ui, { asked: [], answers: [], refused: [], choices: [], defaults: [], shownBeforeTyping: [] });
  await t.call('POST', '/sandbox/reset');
});
const io = (flags: Record<string, unknown> = {}, tty = false) =>
  captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, tty, env: { NO_COLOR: '1' } });
const credit = async (body: Record<string, unknown>) =>
  (await t.call('POST', '/sandbox/inbound-transfers', body)).body.data;

describe('prompts that forgive', () => {
  it('asks again with the reason, keeping the answers before it (wallets create)', async () => {
    ui.answers = ['ref-1', 'Ngozi', 'Okafor', 'ngozi at example', 'ngozi@example.com'];
    const c = io({ json: true }, true);
    await runCreateWallet(c.io, {});
    expect(ui.refused).toEqual(['ngozi at example → must be a valid email address']);
    expect(JSON.parse(c.stdout())).toMatchObject({
      customer_reference: 'ref-1',
      first_name: 'Ngozi',
      last_name: 'Okafor',
      email: 'ngozi@example.com',
    });
  });

  it('a threshold typed in naira or with separators is asked again, not the end of the flow (agents create)', async () => {
    const w = await createWallet(t);
    ui.answers = ['₦500', '1,000', '0500', '50000'];
    const c = io({ json: true }, true);
    await runCreateAgent(c.io, w.id, { name: 'Watch', trigger: 'BALANCE_BELOW', action: 'WEBHOOK_NOTIFY' });
    expect(ui.refused).toEqual([
      '₦500 → "₦500" must be a whole number of kobo, digits only: ₦500.00 is 50000',
      '1,000 → "1,000" must be a whole number of kobo, digits only (500000 is ₦5,000.00)',
      '0500 → "0500" has a leading zero: write 500',
    ]);
    expect(JSON.parse(c.stdout())).toMatchObject({ trigger: 'BALANCE_BELOW', threshold: 50_000 });
  });
});

describe('the suspense picker', () => {
  it('names the customer each payment was for (not the account), and offers REFUND only when the payment came with a sender account and bank', async () => {
    const w = await createWallet(t);
    await credit({ account_number: w.account_number, amount: 4_000, narration: 'asdfgh' });
    ui.answers = ['', (choices: { value: unknown }[]) => choices.find((c) => c.value === 'DISMISS')!.value, true];
    await runResolve(io({ quiet: true }, true).io, undefined, { note: 'n' });
    expect(ui.shownBeforeTyping[0]).toEqual([expect.stringMatching(/^Ada Obi {2}₦40\.00 {2}/)]);
    expect(ui.shownBeforeTyping[0]![0]).not.toContain(w.account_number);
    expect(ui.choices[0]!.map((c) => c.value)).toEqual(['CREDIT_WALLET', 'DISMISS']);

    await credit({
      account_number: w.account_number,
      amount: 5_000,
      narration: 'qwerty',
      sender_account: '0123456785',
      sender_bank_code: '058',
    });
    ui.answers = ['', (choices: { value: unknown }[]) => choices.find((c) => c.value === 'DISMISS')!.value, true];
    await runResolve(io({ quiet: true }, true).io, undefined, { note: 'n' });
    expect(ui.choices.at(-1)!.map((c) => c.value)).toEqual(['CREDIT_WALLET', 'DISMISS', 'REFUND']);
  });

  it('REFUND of a payment without a sender account is refused before anything is sent', async () => {
    const w = await createWallet(t);
    const item = (await credit({ account_number: w.account_number, amount: 4_000, narration: 'asdfgh' })).suspense_item;
    await expect(runResolve(io({}, true).io, item.id, { action: 'REFUND', yes: true })).rejects.toThrow(
      /REFUND needs the sender account and bank code/,
    );
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
  });

  it('offers the wallet the payment was for before anything is typed; for a closed one, the same customer’s other wallet', async () => {
    const ada = await createWallet(t, 0, { first_name: 'Ada', last_name: 'Eze', email: 'ada.eze@example.com' });
    await createWallet(t, 0, { first_name: 'Bola', last_name: 'Ade' });
    const item = (await credit({ account_number: ada.account_number, amount: 3_000, narration: 'asdfgh' }))
      .suspense_item;
    ui.answers = [undefined, true];
    await runResolve(io({ quiet: true }, true).io, item.id, { action: 'CREDIT_WALLET', note: 'x' });
    expect(ui.shownBeforeTyping[0]).toEqual([expect.stringContaining('ADA EZE')]);
    expect((await t.call('GET', `/v1/wallets/${ada.id}`)).body.data.balance).toBe(3_000);

    await t.call('POST', `/v1/wallets/${ada.id}/close`);
    const again = await createWallet(t, 0, {
      first_name: 'Ada',
      last_name: 'Eze',
      email: 'ada.eze@example.com',
      customer_reference: 'ada-new',
    });
    const held = (await credit({ account_number: ada.account_number, amount: 2_000 })).suspense_item;
    ui.answers = [undefined, true];
    await runResolve(io({ quiet: true }, true).io, held.id, { action: 'CREDIT_WALLET', note: 'x' });
    expect(ui.shownBeforeTyping[1]).toEqual([expect.stringContaining(again.account_number)]);
    expect((await t.call('GET', `/v1/wallets/${again.id}`)).body.data.balance).toBe(2_000);
  });

  it('offers nothing before typing when no wallet is the customer’s', async () => {
    const gone = await createWallet(t, 0, { first_name: 'Gone', last_name: 'Away', email: 'gone@example.com' });
    await createWallet(t, 0, { first_name: 'Other', last_name: 'Person' });
    await t.call('POST', `/v1/wallets/${gone.id}/close`);
    const held = (await credit({ account_number: gone.account_number, amount: 1_000 })).suspense_item;
    ui.answers = ['other', true];
    await runResolve(io({ quiet: true }, true).io, held.id, { action: 'CREDIT_WALLET', note: 'x' });
    expect(ui.shownBeforeTyping).toEqual([[]]);
  });
});

describe('wallets', () => {
  it('close on a terminal shows the balance that stays and asks; declining is exit 2 with the wallet still open', async () => {
    const w = await createWallet(t, 250_000);
    ui.answers = [false];
    const c = io({}, true);
    await expect(runClose(c.io, w.id, {})).rejects.toThrow('close cancelled: nothing was changed');
    expect(c.stderr()).toContain('Balance 250000 (₦2,500.00) stays on the wallet');
    expect(ui.asked).toEqual([`confirm: Close wallet ${w.account_number}?`]);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.status).toBe('ACTIVE');
    await runClose(io({ quiet: true }).io, w.id, {});
    expect(ui.asked).toHaveLength(1);
    const shown = io();
    await runGet(shown.io, w.id);
    expect(shown.stdout()).toMatch(/^Closed +2026-11-21T09:30:00\.000Z$/m);
    expect(shown.stdout()).not.toContain('Transfers out');
  });
});

describe('close at 80 columns', () => {
  it('wraps the balance that stays at a space, continued two columns in', async () => {
    const w = await createWallet(t, 1_020_000);
    ui.answers = [false];
    const person = captureIo(
      {},
      { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, columns: 80, env: { NO_COLOR: '1' } },
    );
    await expect(runClose(person.io, w.id, {})).rejects.toThrow('close cancelled: nothing was changed');
    const lines = person.stderr().split('\n');
    expect(lines[1]).toBe(`Balance 1020000 (₦10,200.00) stays on the wallet; later payments to ${w.account_number}`);
    expect(lines[2]).toBe('  go to suspense.');
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.status).toBe('ACTIVE');
  });
});

describe('amounts and counts for people', () => {
  it('resolution messages and agent runs show amounts in kobo and naira; counts are pluralised', async () => {
    const w = await createWallet(t);
    const savings = await createWallet(t);
    const agent = (
      await t.call('POST', `/v1/wallets/${w.id}/agents`, {
        name: 'Sweep',
        trigger: 'BALANCE_ABOVE',
        threshold: 1_000_000,
        action: 'SWEEP',
        destination_wallet_id: savings.id,
      })
    ).body.data;
    await credit({ account_number: w.account_number, amount: 1_500_000, narration: 'salary' });
    const runs = captureIo(
      { wide: true, format: 'table' },
      { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1' } },
    );
    await runRuns(runs.io, agent.id, {});
    expect(runs.stdout()).toContain('balance crossed above 1000000 (₦10,000.00) (0 (₦0.00) → 1500000 (₦15,000.00))');
    expect(runs.stdout()).toContain(`moved 1500000 (₦15,000.00) to wallet ${savings.id}`);
    expect(runs.stdout()).toContain('1–1 of 1 run · page 1');

    const item = (await credit({ account_number: w.account_number, amount: 2_500, narration: 'asdfgh' })).suspense_item;
    const resolved = io();
    await runResolve(resolved.io, item.id, { action: 'DISMISS' });
    expect(resolved.stdout()).toMatch(/^Result +dismissed: 2500 \(₦25\.00\) moved to the dismissed account$/m);
  });
});

describe('terminal safety', () => {
  const hostile = 'Rent\u001b]0;owned\u0007 \u001b[2J\u001b[31mMay\u001b[0m\u0008\u0008\r\nnext\u009b2J \u202eevil';

  it('strips escape sequences and control characters from data shown to people; --json carries it unchanged', async () => {
    const w = await createWallet(t);
    await credit({
      account_number: w.account_number,
      amount: 700,
      narration: hostile.slice(0, 100),
      sender_name: 'Bad\u001b[5mName',
    });
    const table = io({}, true);
    await runTransactions(table.io, w.id, {});
    expect(table.stdout()).not.toMatch(
      /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202e]|\u001b(?!\[(?:1|2|22|31|32|33|39)m)/,
    );
    expect(table.stdout()).toContain('Rent May  next evil');
    const json = io({ json: true });
    await runTransactions(json.io, w.id, {});
    expect(JSON.parse(json.stdout()).items[0].raw_narration).toBe(hostile.slice(0, 100));
    const c = io({}, true);
    await runCredit(c.io, w.account_number, '100', { narration: 'plain', senderName: 'x' });
    expect(c.stdout()).not.toMatch(/\u001b\]/);
  });

  it('cleans a suspense item’s names and narration, and a receiver’s response body in webhooks show', async () => {
    const w = await createWallet(t);
    const item = (
      await credit({
        account_number: w.account_number,
        amount: 800,
        narration: 'asdfgh\u001b[2J',
        sender_name: 'Eve\u001b]52;c;Y2xpcGJvYXJk\u0007',
      })
    ).suspense_item;
    const shown = io({}, true);
    await runShow(shown.io, item.id);
    expect(shown.stdout()).toContain('Sender          Eve (no sender account');
    expect(shown.stdout()).not.toContain('\u001b]52');
    expect(shown.stdout()).toContain('Narration       asdfgh\n');

    const app = await startWebhookApp(
      () => '',
      () => 500,
      '\u001b]8;;http://evil.example/\u0007click\u001b]8;;\u0007 \u001b[2Jgone',
    );
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      await credit({ account_number: w.account_number, amount: 900, narration: 'salary' });
      await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      const [log] = (await t.call('GET', '/v1/webhook-logs?status=FAILED')).body.data.items;
      const c = io({}, true);
      await runShowLog(c.io, log.id);
      expect(c.stdout()).toContain('click gone');
      expect(c.stdout()).not.toMatch(/\u001b\]8|\u001b\[2J/);
      const raw = io({ json: true });
      await runShowLog(raw.io, log.id);
      expect(JSON.parse(raw.stdout()).attempts[0].response_body).toContain('\u001b]8;;http://evil.example/');
    } finally {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: null });
      await app.close();
    }
  });
});
