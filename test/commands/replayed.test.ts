import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import { runAdvance } from '../../src/commands/sandbox/clock-advance.js';
import { runTransfer } from '../../src/commands/transfer.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

/**
 * A command repeated with the --idempotency-key of an earlier one gets that one's answer again
 * (Idempotent-Replayed: true), which looks like a fresh one: the command says on stderr that it is a
 * replay and that nothing was done again. --json and --quiet print only the answer.
 */
const t = useSandbox({ listen: true });
const REPLAYED =
  'Replayed: this --idempotency-key was used before, so this is the first answer, as it was then; nothing was done again.\n';
const io = (flags: Record<string, unknown> = {}) =>
  captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1' } });

describe('a command answered with a replay', () => {
  it('clock advance repeated with its --idempotency-key after another advance says it is a replay', async () => {
    // The replayed time (10:30) is not where the clock is now (11:30).
    const first = io();
    await runAdvance(first.io, '1h', { idempotencyKey: 'day-1' });
    await runAdvance(io().io, '1h', {});
    const again = io();
    await runAdvance(again.io, '1h', { idempotencyKey: 'day-1' });
    expect([again.stdout(), again.stderr()]).toEqual([first.stdout(), REPLAYED]);
    expect(first.stderr()).toBe('');
    expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-21T11:30:00.000Z');
    const json = io({ json: true });
    await runAdvance(json.io, '1h', { idempotencyKey: 'day-1' });
    expect([JSON.parse(json.stdout()).now, json.stderr()]).toEqual(['2026-11-21T10:30:00.000Z', '']);
  });

  it('a transfer refused for funds, repeated with its key once the wallet is funded, says it is the old answer', async () => {
    const from = await createWallet(t, 1_000);
    const to = await createWallet(t);
    const refused = io();
    await expect(
      runTransfer(refused.io, from.id, to.id, '5000', { idempotencyKey: 'pay-5000' }),
    ).rejects.toBeInstanceOf(ApiError);
    await t.call('POST', '/sandbox/inbound-transfers', { account_number: from.account_number, amount: 10_000 });
    const again = io();
    await expect(runTransfer(again.io, from.id, to.id, '5000', { idempotencyKey: 'pay-5000' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    expect([refused.stderr(), again.stderr()]).toEqual(['', REPLAYED]);
  });
});
