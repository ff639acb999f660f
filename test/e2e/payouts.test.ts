import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { useCli } from '../helpers/cli.js';
import { refusalLine } from '../helpers/io.js';

/** Payouts through the built binary: failure and reversal, a restart while pending, and the provider commands. */
const cli = useCli();

const json = (args: string[]) => cli.json(args);

describe('payouts from the command line', () => {
  it('payout → failure → reversal, with the audit clean and balances exact', async () => {
    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--settlement-delay', '30'])).exitCode,
    ).toBe(0);
    const w = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'p',
        '--first-name',
        'Pay',
        '--last-name',
        'Out',
        '--email',
        'p@o.ng',
        '-q',
      ])
    ).stdout.trim();
    await cli.run(['credit', w, '700000']);

    const payout = await json(['transfer', w, '1111111111', '500000', '--bank', '044', '--narration', 'Supplier']);
    expect(payout).toMatchObject({ status: 'PENDING', new_balance: 199_000, fee: 1_000 });
    expect((await json(['transactions', 'get', payout.transaction_id])).status).toBe('PENDING');

    await json(['sandbox', 'clock', 'advance', '30s']);
    expect((await json(['transactions', 'get', payout.transaction_id])).status).toBe('FAILED');
    const history = (await json(['transactions', 'list', w])).items.map(
      (t: { type: string; amount: number; status: string; balance_after: number }) => [
        t.type,
        t.amount,
        t.status,
        t.balance_after,
      ],
    );
    expect(history).toEqual([
      ['CREDIT', 700_000, 'SETTLED', 700_000],
      ['DEBIT', 500_000, 'FAILED', 200_000],
      ['DEBIT', 1_000, 'SETTLED', 199_000],
      ['CREDIT', 501_000, 'SETTLED', 700_000],
    ]);
    expect((await json(['wallets', 'get', w])).balance).toBe(700_000);

    const stuck = await json(['transfer', w, '2222222222', '100000', '--bank', '058', '--yes']);
    await json(['sandbox', 'clock', 'advance', '1d']);
    expect((await json(['transactions', 'get', stuck.transaction_id])).status).toBe('PENDING');
    expect((await json(['sandbox', 'payouts', 'settle', stuck.transaction_id])).status).toBe('SETTLED');
    const again = await cli.run(['sandbox', 'payouts', 'fail', stuck.transaction_id]);
    expect([again.exitCode, again.stderr]).toEqual([
      1,
      'Error [NOT_FOUND]: payout is already SETTLED (request req_00000014)\n',
    ]);
    expect((await json(['wallets', 'get', w])).balance).toBe(599_000);

    const refused = await cli.run(['transfer', w, '0000000000', '100', '--bank', '058']);
    expect([refused.exitCode, refused.stderr]).toEqual([
      1,
      'Error [ACCOUNT_NOT_FOUND]: account 0000000000 at Guaranty Trust Bank (058) could not be resolved (request req_00000016)\n',
    ]);
    const audit = await cli.run(['sandbox', 'audit']);
    expect(audit.exitCode).toBe(0);
    await cli.run(['sandbox', 'stop']);
  });

  it('keeps a pending payout across a restart and settles it when the clock reaches it', async () => {
    const db = join(cli.dir, 'restart.db');
    rmSync(db, { force: true });
    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--settlement-delay', '60'])).exitCode,
    ).toBe(0);
    const w = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'r',
        '--first-name',
        'Re',
        '--last-name',
        'Start',
        '--email',
        'r@s.ng',
        '-q',
      ])
    ).stdout.trim();
    await cli.run(['credit', w, '100000']);
    const payout = await json(['transfer', w, makeNuban('057', '123123123'), '10000', '--bank', '057']);
    expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);

    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--settlement-delay', '60'])).exitCode,
    ).toBe(0);
    expect((await json(['transactions', 'get', payout.transaction_id])).status).toBe('PENDING');
    await json(['sandbox', 'clock', 'advance', '60s']);
    expect((await json(['transactions', 'get', payout.transaction_id])).status).toBe('SETTLED');
    expect((await json(['wallets', 'get', w])).balance).toBe(89_000);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    await cli.run(['sandbox', 'stop']);
  });

  it('lists and searches banks, resolves names, and shows the magic accounts', async () => {
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
    const kuda = await json(['banks', 'list', '--search', 'kuda']);
    expect(kuda.items).toEqual([
      { code: '50211', name: 'Kuda Microfinance Bank' },
      { code: '090267', name: 'Kuda (NIP)' },
    ]);
    // On a pipe, one tab-separated row per bank under a header line.
    const listed = (await cli.run(['banks', 'list'])).stdout.split('\n');
    expect([listed[0], listed.filter((line) => line.startsWith('058\t'))]).toEqual([
      'code\tname',
      ['058\tGuaranty Trust Bank'],
    ]);
    // The names people use: a brand, or the initials.
    for (const [search, code] of [
      ['GTBank', '058'],
      ['gtb', '058'],
      ['UBA', '033'],
      ['fcmb', '214'],
      ['first bank', '011'],
    ]) {
      expect(
        (await json(['banks', 'list', '--search', search!])).items.map((b: { code: string }) => b.code),
        search,
      ).toEqual([code]);
    }
    expect(await json(['banks', 'resolve', '2222222222', '058'])).toEqual({
      account_number: '2222222222',
      account_name: 'SANDBOX PENDING PAYOUT',
    });
    const bad = await cli.run(['banks', 'resolve', '2222222222', '999']);
    expect([bad.exitCode, bad.stderr]).toEqual([
      1,
      refusalLine(
        'Error [INVALID_BANK_CODE]: bank code 999 is not in the list of banks: `ledger banks list --search <name>` shows the codes\n',
      ),
    ]);
    expect((await cli.run(['sandbox', 'magic', '--quiet'])).stdout).toBe('0000000000\n1111111111\n2222222222\n');
  });

  it('`transactions get` shows a failed payout, its fee and its reversal naming one another, and --json is the API data', async () => {
    await cli.run(['sandbox', 'stop']);
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--seed', '7'])).exitCode).toBe(
      0,
    );
    try {
      const w = (
        await cli.run([
          'wallets',
          'create',
          '--customer-reference',
          'links',
          '--first-name',
          'Ada',
          '--last-name',
          'Obi',
          '--email',
          'a@o.ng',
          '-q',
        ])
      ).stdout.trim();
      await cli.run(['credit', w, '100000']);
      const payout = (
        await cli.run(['transfer', w, '1111111111', '50000', '--bank', '058', '--yes', '-q'])
      ).stdout.trim();
      const get = (id: string) => cli.run(['transactions', 'get', id]).then((r) => r.stdout);
      const [, , fee] = (await json(['transactions', 'list', w])).items.map((t: { id: string }) => t.id);
      const pending = await get(payout);
      expect(pending).toContain(
        `\nFee charged       ${fee}\nProvider acts     at 2026-01-01T00:00:02.000Z (sandbox clock)\n`,
      );
      expect(pending).not.toContain('Reversal');

      await cli.run(['sandbox', 'clock', 'advance', '2s']);
      const [, , , reversal] = (await json(['transactions', 'list', w])).items.map((t: { id: string }) => t.id);
      expect(await get(payout)).toContain(
        `\nFee charged       ${fee}\nReversal          ${reversal} (51000 (₦510.00) back to the wallet)\n`,
      );
      expect(await get(reversal)).toContain(
        `\nReverses          ${payout} (the FAILED payout of 50000 (₦500.00) and its 1000 (₦10.00) fee)\n`,
      );
      expect(await get(fee)).toContain(`\nFee for           ${payout} (the payout, FAILED)\n`);
      // --json and --quiet are the API's transaction, nothing added.
      const api = await json(['transactions', 'get', reversal]);
      expect(Object.keys(api)).not.toContain('reverses');
      expect(api).toMatchObject({ id: reversal, type: 'CREDIT', amount: 51_000, sender_name: 'NIP REVERSAL' });
      expect((await cli.run(['transactions', 'get', payout, '-q'])).stdout).toBe(`${payout}\n`);
      // A transaction that is not part of a payout shows no links.
      const [credit] = (await json(['transactions', 'list', w])).items.map((t: { id: string }) => t.id);
      expect(await get(credit)).not.toMatch(/Reversal|Reverses|Fee for|Fee charged/);
    } finally {
      await cli.run(['sandbox', 'stop']);
    }
  });
});
