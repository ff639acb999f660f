import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nigerianName } from '../../src/engine/banks/names.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createTestSandbox, createWallet, T0, useSandbox, logsWithPayload, balanceOf } from '../helpers/sandbox.js';
import { typeName } from '../../src/engine/events/stored.js';

const GTB = makeNuban('058', '012345678');
const t = useSandbox({ auditAfter: true });

const send = (from: string, account: string, amount: number, bank = '058', extra: Record<string, unknown> = {}) =>
  t.call('POST', `/v1/wallets/${from}/transfer`, {
    destination_account_number: account,
    destination_bank_code: bank,
    amount,
    ...extra,
  });
const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });
const systemBalance = async (kind: 'FEE_INCOME' | 'PROVIDER_SETTLEMENT') =>
  (
    await t.sandbox.db
      .selectFrom('accounts')
      .select('balance')
      .where('developer_id', '=', t.developerId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow()
  ).balance;
const eventTypes = async () =>
  (await t.sandbox.db.selectFrom('webhook_logs').select('event_type_code').orderBy('seq').execute()).map((e) =>
    typeName(e.event_type_code),
  );
const history = async (walletId: string) =>
  (await t.call('GET', `/v1/wallets/${walletId}/transactions`)).body.data.items.map(
    (x: { type: string; amount: number; status: string; balance_after: number; raw_narration: string }) =>
      [x.type, x.amount, x.status, x.balance_after, x.raw_narration].join(' '),
  );

describe('an external payout that settles', () => {
  it('is PENDING with the fee taken at once, then SETTLED by the clock with transfer.completed', async () => {
    const w = await createWallet(t, 1_000_000);
    const r = await send(w.id, GTB, 500_000, '058', { narration: 'Invoice 42' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      status: 'PENDING',
      transaction_id: expect.any(String),
      provider_reference: expect.stringMatching(/^\d{30}$/),
      new_balance: 499_000,
      currency: 'NGN',
      fee: 1_000,
    });
    expect(await history(w.id)).toEqual([
      'CREDIT 1000000 SETTLED 1000000 Transfer from SANDBOX SENDER',
      'DEBIT 500000 PENDING 500000 Invoice 42',
      'DEBIT 1000 SETTLED 499000 Transfer fee',
    ]);
    const payout = (await t.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data;
    expect(payout).toMatchObject({
      provider_reference: r.body.data.provider_reference,
      destination_account_number: GTB,
      destination_bank_code: '058',
      destination_account_name: nigerianName('058', GTB),
      fee: 1_000,
    });

    await advance(1);
    expect((await t.call('GET', `/v1/transactions/${payout.id}`)).body.data.status).toBe('PENDING');
    await advance(1);
    expect((await t.call('GET', `/v1/transactions/${payout.id}`)).body.data).toMatchObject({
      status: 'SETTLED',
      updated_at: '2026-11-21T09:30:02.000Z',
    });
    expect(await balanceOf(t, w.id)).toBe(499_000);
    expect(await systemBalance('FEE_INCOME')).toBe(1_000);
    expect(await systemBalance('PROVIDER_SETTLEMENT')).toBe(-500_000);
    expect(await eventTypes()).toEqual(['ledger.credit', 'ledger.debit', 'ledger.debit', 'transfer.completed']);
    const completed = (await logsWithPayload(t, 'transfer.completed')).at(0)!;
    expect(JSON.parse(completed.payload).data).toMatchObject({
      transaction_id: payout.id,
      wallet_id: w.id,
      status: 'SETTLED',
      amount: 500_000,
      fee: 1_000,
    });
  });

  it('settles at its due time when one advance goes well past it', async () => {
    const w = await createWallet(t, 600_000);
    const r = await send(w.id, GTB, 500_000, '058');
    await advance(3_600);
    expect((await t.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data).toMatchObject({
      status: 'SETTLED',
      updated_at: '2026-11-21T09:30:02.000Z',
    });
    const completed = (await logsWithPayload(t, 'transfer.completed')).at(0)!;
    expect(JSON.parse(completed.payload).created_at).toBe('2026-11-21T09:30:02.000Z');
    expect((await t.call('GET', '/sandbox/clock')).body.data.now).toBe('2026-11-21T10:30:00.000Z');
  });

  it('settles before answering with --settlement-delay 0, and answers SUCCESS', async () => {
    const now = await createTestSandbox({ settlementDelaySeconds: 0, seed: 'zero' });
    try {
      const w = await createWallet(now, 10_000);
      const r = await now.call('POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: GTB,
        destination_bank_code: '058',
        amount: 5_000,
      });
      expect(r.body.data).toMatchObject({ status: 'SUCCESS', new_balance: 4_000, fee: 1_000 });
      expect((await now.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data.status).toBe(
        'SETTLED',
      );
      const failed = await now.call('POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: '1111111111',
        destination_bank_code: '058',
        amount: 1_000,
      });
      expect(failed.body.data).toMatchObject({ status: 'FAILED', new_balance: 4_000, fee: 1_000 });
    } finally {
      await now.close();
    }
  });
});

describe('the magic accounts', () => {
  it('1111111111: PENDING, then FAILED and reversed (amount + fee) with transfer.failed', async () => {
    const w = await createWallet(t, 600_000);
    const r = await send(w.id, '1111111111', 500_000, '044');
    expect(r.body.data).toMatchObject({ status: 'PENDING', new_balance: 99_000, fee: 1_000 });
    await advance(2);
    expect(await history(w.id)).toEqual([
      'CREDIT 600000 SETTLED 600000 Transfer from SANDBOX SENDER',
      'DEBIT 500000 FAILED 100000 Wallet Transfer',
      'DEBIT 1000 SETTLED 99000 Transfer fee',
      'CREDIT 501000 SETTLED 600000 Reversal: Wallet Transfer',
    ]);
    expect(await balanceOf(t, w.id)).toBe(600_000);
    expect(await systemBalance('FEE_INCOME')).toBe(0);
    expect(await systemBalance('PROVIDER_SETTLEMENT')).toBe(-600_000);
    expect(await eventTypes()).toEqual([
      'ledger.credit',
      'ledger.debit',
      'ledger.debit',
      'ledger.credit',
      'transfer.failed',
    ]);
    const failed = (await logsWithPayload(t, 'transfer.failed')).at(0)!;
    expect(JSON.parse(failed.payload).data).toMatchObject({
      transaction_id: r.body.data.transaction_id,
      reversed_amount: 501_000,
      status: 'FAILED',
    });
  });

  it('2222222222: stays PENDING until settled by hand; a second settle is 404', async () => {
    const w = await createWallet(t, 100_000);
    const r = await send(w.id, '2222222222', 50_000, '057');
    await advance(7 * 24 * 3600);
    expect((await t.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data.status).toBe('PENDING');
    const settled = await t.call('POST', `/sandbox/payouts/${r.body.data.transaction_id}/settle`);
    expect([settled.status, settled.body.data.status]).toEqual([200, 'SETTLED']);
    const again = await t.call('POST', `/sandbox/payouts/${r.body.data.transaction_id}/fail`);
    expect([again.status, again.body.detail]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'payout is already SETTLED', request_id: 'req_00000008' },
    ]);
    expect(await balanceOf(t, w.id)).toBe(49_000);
  });

  it('2222222222: failed by hand is reversed', async () => {
    const w = await createWallet(t, 100_000);
    const r = await send(w.id, '2222222222', 50_000);
    const failed = await t.call('POST', `/sandbox/payouts/${r.body.data.transaction_id}/fail`);
    expect(failed.body.data.status).toBe('FAILED');
    expect(await balanceOf(t, w.id)).toBe(100_000);
    expect(await eventTypes()).toContain('transfer.failed');
  });

  it('0000000000: rejected with 422 ACCOUNT_NOT_FOUND and nothing moves', async () => {
    const w = await createWallet(t, 100_000);
    const r = await send(w.id, '0000000000', 50_000, '011');
    expect([r.status, r.body.detail.code]).toEqual([422, 'ACCOUNT_NOT_FOUND']);
    expect(await balanceOf(t, w.id)).toBe(100_000);
    expect((await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.total).toBe(1);
  });

  it('manual settle or fail of something that is not a pending payout is 404', async () => {
    const w = await createWallet(t, 100_000);
    const credit = (await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.items[0].id;
    expect((await t.call('POST', `/sandbox/payouts/${credit}/settle`)).body.detail).toEqual({
      code: 'NOT_FOUND',
      message: 'pending payout not found',
      request_id: 'req_00000005',
    });
    const r = await send(w.id, '2222222222', 1_000);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Other' });
    const theirs = await t.call('POST', `/sandbox/payouts/${r.body.data.transaction_id}/settle`, undefined, {
      key: other.body.data.api_key,
    });
    expect(theirs.status).toBe(404);
  });
});

describe("settle or fail by the id of a payout's fee or reversal", () => {
  it("settling the fee of a pending payout is a 404 that names the payout's own id, for its owner only", async () => {
    const w = await createWallet(t, 100_000);
    const r = await send(w.id, '2222222222', 50_000);
    const payout = r.body.data.transaction_id;
    const fee = (await t.call('GET', `/v1/wallets/${w.id}/transactions?order=desc&limit=1`)).body.data.items[0].id;
    expect(fee).not.toBe(payout);
    const byFee = await t.call('POST', `/sandbox/payouts/${fee}/settle`);
    expect([byFee.status, byFee.body.detail]).toEqual([
      404,
      {
        code: 'NOT_FOUND',
        message: `pending payout not found: ${fee} is the fee of payout ${payout} (PENDING), which is settled or failed by that id`,
        request_id: 'req_00000006',
      },
    ]);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data.api_key;
    expect((await t.call('POST', `/sandbox/payouts/${fee}/settle`, undefined, { key: other })).body.detail).toEqual({
      code: 'NOT_FOUND',
      message: 'pending payout not found',
      // The other developer's first request.
      request_id: 'req_00000001',
    });
    expect((await t.call('POST', `/sandbox/payouts/${payout}/fail`)).status).toBe(200);
    const reversal = (await t.call('GET', `/v1/wallets/${w.id}/transactions?order=desc&limit=1`)).body.data.items[0].id;
    expect((await t.call('POST', `/sandbox/payouts/${reversal}/settle`)).body.detail).toEqual({
      code: 'NOT_FOUND',
      message: `pending payout not found: ${reversal} is the reversal of payout ${payout} (FAILED), which is settled or failed by that id`,
      request_id: 'req_00000010',
    });
    expect(await balanceOf(t, w.id)).toBe(100_000);
  });
});

describe('the payout a transaction belongs to (GET /sandbox/transactions/:tx_id/payout)', () => {
  it('links a failed payout, its fee and its reversal from any of the three; anything else, or another developer, is 404', async () => {
    const w = await createWallet(t, 600_000);
    const r = await send(w.id, '1111111111', 500_000, '044');
    await advance(2);
    const [credit, payout, fee, reversal] = (
      await t.call('GET', `/v1/wallets/${w.id}/transactions`)
    ).body.data.items.map((x: { id: string }) => x.id);
    expect(payout).toBe(r.body.data.transaction_id);
    const expected = {
      transaction_id: payout,
      fee_transaction_id: fee,
      reversal_transaction_id: reversal,
      wallet_id: w.id,
      status: 'FAILED',
      amount: 500_000,
      fee: 1_000,
      destination_account_number: '1111111111',
      destination_bank_code: '044',
      destination_account_name: 'SANDBOX FAILED PAYOUT',
      provider_reference: r.body.data.provider_reference,
      due_at: expect.any(String),
      resolved_at: expect.any(String),
      created_at: expect.any(String),
    };
    for (const id of [payout, fee, reversal]) {
      const found = await t.call('GET', `/sandbox/transactions/${id}/payout`);
      expect([id, found.status, found.body.data]).toEqual([id, 200, expected]);
    }
    const none = await t.call('GET', `/sandbox/transactions/${credit}/payout`);
    expect([none.status, none.body.detail]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'payout not found', request_id: 'req_00000010' },
    ]);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Other' });
    expect(
      (await t.call('GET', `/sandbox/transactions/${payout}/payout`, undefined, { key: other.body.data.api_key }))
        .status,
    ).toBe(404);
  });
});

describe('fees and funds', () => {
  it.each([
    [500_000, 1_000],
    [500_001, 2_500],
    [5_000_000, 2_500],
    [5_000_001, 5_000],
  ])('charges the NIP fee for %i kobo: %i', async (amount, fee) => {
    const w = await createWallet(t, amount + fee);
    const r = await send(w.id, GTB, amount);
    expect(r.body.data).toMatchObject({ status: 'PENDING', fee, new_balance: 0 });
    const feeDebit = (await t.call('GET', `/v1/wallets/${w.id}/transactions?order=desc&limit=1`)).body.data.items[0];
    expect(feeDebit).toMatchObject({
      type: 'DEBIT',
      amount: fee,
      raw_narration: 'Transfer fee',
      status: 'SETTLED',
      balance_after: 0,
    });
    await advance(2);
    expect(await systemBalance('FEE_INCOME')).toBe(fee);
  });

  it('needs amount + fee: one kobo short is 422 INSUFFICIENT_FUNDS and nothing moves', async () => {
    const w = await createWallet(t, 500_999);
    const r = await send(w.id, GTB, 500_000);
    // Short by the fee, the message still names the whole payout against the balance before it, not "insufficient funds for this amount".
    expect([r.status, r.body.detail]).toEqual([
      422,
      {
        code: 'INSUFFICIENT_FUNDS',
        message:
          "insufficient funds: the wallet's balance is 500999 kobo, and this needs 501000 kobo (500000 and a fee of 1000)",
        request_id: 'req_00000004',
      },
    ]);
    const poorer = await send(w.id, GTB, 600_000);
    expect(poorer.body.detail.message).toBe(
      "insufficient funds: the wallet's balance is 500999 kobo, and this needs 602500 kobo (600000 and a fee of 2500)",
    );
    expect(await balanceOf(t, w.id)).toBe(500_999);
    expect(await systemBalance('FEE_INCOME')).toBe(0);
    expect((await t.sandbox.db.selectFrom('payouts').selectAll().execute()).length).toBe(0);
  });

  it('refuses a source with allow_transfers_out false (403) and an unlisted bank (400 INVALID_BANK_CODE)', async () => {
    const locked = await createWallet(t, 100_000, { allow_transfers_out: false });
    expect((await send(locked.id, GTB, 1_000)).status).toBe(403);
    const w = await createWallet(t, 100_000);
    const r = await send(w.id, GTB, 1_000, '999');
    expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
      400,
      'INVALID_BANK_CODE',
      [{ field: 'destination_bank_code', message: 'not a listed bank code' }],
    ]);
  });
});

describe('cross-developer routing', () => {
  it("delivers a payout to another developer's virtual account as an inbound transfer at settlement", async () => {
    const sender = await createWallet(t, 1_000_000);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Acme Pay' })).body.data.api_key;
    const recipient = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'r', first_name: 'Uche', last_name: 'Nwosu', email: 'u@n.ng' },
        { key: other },
      )
    ).body.data;
    const name = await t.call('POST', '/v1/banks/resolve', {
      account_number: recipient.account_number,
      bank_code: '035',
    });
    expect(name.body.data.account_name).toBe('ACME PAY / UCHE NWOSU');
    const r = await send(sender.id, recipient.account_number, 250_000, '035', { narration: 'Order 7' });
    expect(r.body.data.status).toBe('PENDING');
    expect(await balanceOf(t, recipient.id, other)).toBe(0);
    await advance(2);
    expect(await balanceOf(t, recipient.id, other)).toBe(250_000);
    const credit = (await t.call('GET', `/v1/wallets/${recipient.id}/transactions`, undefined, { key: other })).body
      .data.items[0];
    expect(credit).toMatchObject({
      type: 'CREDIT',
      amount: 250_000,
      sender_name: 'SANDBOX / ADA OBI',
      sender_account: sender.account_number,
      raw_narration: 'Order 7',
      provider_reference: r.body.data.provider_reference,
    });
  });

  it("holds it in the other developer's suspense queue when their wallet is closed", async () => {
    const sender = await createWallet(t, 100_000);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Acme Pay' })).body.data.api_key;
    const recipient = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'r', first_name: 'U', last_name: 'N', email: 'u@n.ng' },
        { key: other },
      )
    ).body.data;
    await t.call('POST', `/v1/wallets/${recipient.id}/close`, undefined, { key: other });
    await send(sender.id, recipient.account_number, 10_000, '035');
    await advance(2);
    const items = await t.sandbox.db
      .selectFrom('suspense_items')
      .select(['reason', 'amount', 'developer_id'])
      .execute();
    expect(items).toEqual([{ reason: 'WALLET_CLOSED', amount: 10_000, developer_id: recipient.developer_id }]);
  });
});

describe('a restart while a payout is pending', () => {
  it('keeps the payout and settles it at the next start once it is due', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-restart-'));
    const dbPath = join(dir, 'sandbox.db');
    try {
      const before = await createTestSandbox({ dbPath, seed: 'r1' });
      const w = await createWallet(before, 100_000);
      const r = await before.call('POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: GTB,
        destination_bank_code: '058',
        amount: 10_000,
      });
      expect(r.body.data.status).toBe('PENDING');
      await before.close();

      // Ten seconds of real time pass while it is stopped.
      const after = await createTestSandbox({ dbPath, seed: 'r2', clockStart: T0 + 10_000 });
      expect(
        (await after.call('GET', `/v1/transactions/${r.body.data.transaction_id}`, undefined, { key: after.key })).body
          .data.status,
      ).toBe('PENDING');
      expect(await after.app.scheduler.runDue()).toBe(1);
      const settled = (await after.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data;
      expect(settled).toMatchObject({ status: 'SETTLED', updated_at: '2026-11-21T09:30:10.000Z' });
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
