import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/client/errors.js';
import { runCreate } from '../../src/commands/agents/create.js';
import { runToggle } from '../../src/commands/agents/toggle.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

const ui = vi.hoisted(() => ({ asked: [] as string[], answers: [] as unknown[] }));
vi.mock('@inquirer/prompts', () => {
  const answer =
    (kind: string) =>
    async ({
      message,
      choices,
      source,
    }: {
      message: string;
      choices?: { value: unknown; name: string }[];
      source?: (t: string) => Promise<{ value: unknown }[]>;
    }) => {
      ui.asked.push(`${kind}: ${message}`);
      const next = ui.answers.shift();
      if (kind === 'select') return choices!.find((c) => c.value === next)!.value;
      if (kind === 'search') return (await source!(String(next)))[0]!.value;
      return next;
    };
  return { select: answer('select'), search: answer('search'), input: answer('input'), confirm: answer('confirm') };
});

const t = useSandbox({ scope: 'all', listen: true });
beforeEach(() => {
  ui.asked = [];
  ui.answers = [];
});
const io = (tty: boolean, flags: Record<string, unknown> = { json: true }) =>
  captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, tty });

describe('ledger agents create', () => {
  it('on a terminal asks only what ON_CREDIT + WEBHOOK_NOTIFY need', async () => {
    const w = await createWallet(t);
    ui.answers = ['Tell me', 'ON_CREDIT', 'WEBHOOK_NOTIFY'];
    const c = io(true);
    await runCreate(c.io, w.id, {});
    expect(ui.asked).toEqual(['input: Agent name', 'select: Fire on…', 'select: And then…']);
    expect(JSON.parse(c.stdout())).toMatchObject({
      name: 'Tell me',
      trigger: 'ON_CREDIT',
      action: 'WEBHOOK_NOTIFY',
      threshold: null,
      destination_wallet_id: null,
    });
  });

  it('asks for the threshold, the destination (by search) and the amount when the choices need them', async () => {
    const w = await createWallet(t);
    const savings = await createWallet(t, 0, { first_name: 'Savings', last_name: 'Pot' });
    ui.answers = ['BALANCE_ABOVE', 'PARTIAL_SWEEP', '1000000', 'savings pot', '250000'];
    const c = io(true);
    await runCreate(c.io, w.id, { name: 'Partial' });
    expect(ui.asked).toEqual([
      'select: Fire on…',
      'select: And then…',
      'input: Threshold in kobo',
      'search: Sweep into which wallet? (type to search)',
      'input: Amount to sweep, in kobo',
    ]);
    expect(JSON.parse(c.stdout())).toMatchObject({
      trigger: 'BALANCE_ABOVE',
      threshold: 1_000_000,
      action: 'PARTIAL_SWEEP',
      destination_wallet_id: savings.id,
      sweep_amount: 250_000,
    });
  });

  it('without a terminal, missing flags are usage errors; flags a choice does not use are refused', async () => {
    const w = await createWallet(t);
    await expect(runCreate(io(false).io, w.id, { name: 'x', action: 'LOCK_WALLET' })).rejects.toThrow(
      new UsageError('missing --trigger (no terminal to ask on)'),
    );
    await expect(
      runCreate(io(false).io, w.id, { name: 'x', trigger: 'BALANCE_BELOW', action: 'LOCK_WALLET' }),
    ).rejects.toThrow(new UsageError('missing --threshold (no terminal to ask on)'));
    await expect(
      runCreate(io(false).io, w.id, { name: 'x', trigger: 'ON_CREDIT', action: 'LOCK_WALLET', destination: 'd' }),
    ).rejects.toThrow(new UsageError('--destination is not used by LOCK_WALLET'));
    await expect(
      runCreate(io(false).io, w.id, { name: 'x', trigger: 'SOMETIMES', action: 'LOCK_WALLET' }),
    ).rejects.toThrow(UsageError);
    expect(ui.asked).toEqual([]);
  });

  it('toggle needs exactly one of --on and --off', async () => {
    const w = await createWallet(t);
    const c = io(false, { quiet: true });
    await runCreate(c.io, w.id, { name: 'x', trigger: 'on_credit', action: 'lock_wallet' });
    const id = c.stdout().trim();
    await expect(runToggle(io(false).io, w.id, id, {})).rejects.toThrow(new UsageError('say --on or --off'));
    const off = io(false);
    await runToggle(off.io, w.id, id, { off: true });
    expect(JSON.parse(off.stdout()).is_active).toBe(false);
  });
});
