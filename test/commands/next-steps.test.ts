import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/errors.js';
import { notFoundArgument } from '../../src/cli/account-number.js';
import { reportError } from '../../src/cli/errors.js';
import { runCredit } from '../../src/commands/credit.js';
import { runShow as runShowItem } from '../../src/commands/suspense/show.js';
import { runRetry } from '../../src/commands/webhooks/retry.js';
import { runShow as runShowLog } from '../../src/commands/webhooks/show.js';
import { captureIo } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

/**
 * Support staff at a terminal: a screen that shows something waiting for a person (a held payment,
 * a failed delivery) says on stderr what to run next; --json and --quiet stay exactly the data.
 */

const t = useSandbox({ scope: 'all', listen: true });
const io = (flags: Record<string, unknown> = {}) =>
  captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, columns: 200, env: { NO_COLOR: '1' } });

describe('what to do next', () => {
  it('`suspense show` of a PENDING item names the command that resolves it, and of a resolved one says nothing more', async () => {
    const w = await createWallet(t);
    const held = (
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: w.account_number,
        amount: 70_000,
        narration: 'asdfgh',
      })
    ).body.data.suspense_item;
    const shown = io();
    await runShowItem(shown.io, held.id);
    expect(shown.stderr()).toBe(
      `Resolve it with \`ledger suspense resolve ${held.id}\`: on a terminal it asks for the action and the wallet, and asks again before money moves.\n`,
    );
    const json = io({ json: true });
    await runShowItem(json.io, held.id);
    expect(json.stderr()).toBe('');

    await t.call('POST', `/v1/suspense/${held.id}/resolve`, { action: 'DISMISS' });
    const resolved = io();
    await runShowItem(resolved.io, held.id);
    expect(resolved.stderr()).toBe('');
  });

  it('a `credit` held in suspense names the commands that show and resolve it, and a credited one says nothing more', async () => {
    const w = await createWallet(t);
    const held = io();
    await runCredit(held.io, w.account_number, '70000', { narration: 'qwzxkj' });
    const item = /Suspense item (\S+)/.exec(held.stdout())![1]!;
    expect(held.stderr()).toBe(
      `\`ledger suspense show ${item}\` shows why it was held; \`ledger suspense resolve ${item}\` credits, refunds or dismisses it.\n`,
    );
    expect((await t.call('GET', `/sandbox/suspense/${item}`)).body.data.status).toBe('PENDING');
    const json = io({ json: true });
    await runCredit(json.io, w.account_number, '70000', { narration: 'qwzxkj' });
    expect([JSON.parse(json.stdout()).outcome, json.stderr()]).toEqual(['SUSPENDED', '']);
    const credited = io();
    await runCredit(credited.io, w.account_number, '70000', { narration: 'rent for May' });
    expect(credited.stdout()).toContain('CREDITED');
    expect(credited.stderr()).toBe('');
  });

  it('`webhooks show` of a FAILED delivery and `webhooks retry` of it say how the attempt went and what to run', async () => {
    const w = await createWallet(t);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 }); // every earlier delivery made, so the failures are this one's
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 2 });
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: w.account_number,
      amount: 1_000,
      narration: 'salary',
    });
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
    const [log] = (await t.call('GET', '/v1/webhook-logs?status=FAILED')).body.data.items;

    const shown = io();
    await runShowLog(shown.io, log.id);
    expect(shown.stderr()).toBe(
      `\`ledger webhooks retry ${log.id}\` makes one attempt now; otherwise the next is at ${log.next_retry_at} on the sandbox clock.\n`,
    );

    const failed = io();
    await runRetry(failed.io, log.id, {});
    expect(failed.stderr()).toBe(
      `Attempt 2 failed (HTTP 503): still FAILED; \`ledger webhooks show ${log.id}\` has the response.\n`,
    );
    const delivered = io();
    await runRetry(delivered.io, log.id, {});
    expect(delivered.stderr()).toBe('Attempt 3 delivered it.\n');
    const quiet = io({ quiet: true });
    await runShowLog(quiet.io, log.id);
    expect([quiet.stdout(), quiet.stderr()]).toEqual([`${log.id}\n`, '']);
  });
});

describe('a command in a hint, at 80 columns', () => {
  it('keeps a command in backticks whole on one line when it wraps an error, so it can be copied', () => {
    let err = '';
    const terminal = { write: (s: string) => (err += s), isTTY: true, columns: 80 };
    const id = '01a20fd4-937d-7080-9527-71981cfe940e';
    expect(
      reportError(notFoundArgument(new ApiError(404, 'NOT_FOUND', 'wallet not found'), ['wallet_id'], [id]), terminal),
    ).toBe(1);
    expect(err).toBe(
      `Error [NOT_FOUND]: wallet not found: <wallet_id>\n  "${id}" is not one of your wallet ids\n  (\`ledger wallets list\` shows them)\n`,
    );
    expect(Math.max(...err.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
