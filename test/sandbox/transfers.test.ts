import { describe, expect, it } from 'vitest';
import { createWallet, useSandbox, logsWithPayload, balanceOf } from '../helpers/sandbox.js';

const t = useSandbox({ auditAfter: true });

describe('internal transfer (decisions: Transfers and payouts)', () => {
  it('settles at once: DEBIT and CREDIT, no fee, ledger.debit and ledger.credit deliveries', async () => {
    const a = await createWallet(t, 500_000);
    const b = await createWallet(t, 1_000);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 150_000,
      narration: 'May rent',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      data: {
        status: 'SUCCESS',
        transaction_id: expect.any(String),
        provider_reference: expect.stringMatching(/^\d{30}$/),
        new_balance: 350_000,
        currency: 'NGN',
        fee: 0,
      },
    });
    expect(await balanceOf(t, a.id)).toBe(350_000);
    expect(await balanceOf(t, b.id)).toBe(151_000);

    const debit = (await t.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data;
    expect(debit).toMatchObject({
      wallet_id: a.id,
      type: 'DEBIT',
      amount: 150_000,
      balance_before: 500_000,
      balance_after: 350_000,
      status: 'SETTLED',
      raw_narration: 'May rent',
      provider_reference: r.body.data.provider_reference,
      destination_account_number: b.account_number,
      fee: 0,
      service_intelligence: null,
    });
    const credits = (await t.call('GET', `/v1/wallets/${b.id}/transactions?type=CREDIT&order=desc&limit=1`)).body.data
      .items;
    expect(credits[0]).toMatchObject({
      type: 'CREDIT',
      amount: 150_000,
      balance_before: 1_000,
      balance_after: 151_000,
      sender_name: a.account_name,
      sender_account: a.account_number,
    });

    const logs = await logsWithPayload(t);
    const transferEvents = logs
      .slice(-2)
      .map((l) => ({ type: l.event_type, status: l.status, data: JSON.parse(l.payload).data }));
    expect(transferEvents).toEqual([
      {
        type: 'ledger.debit',
        status: 'PENDING',
        data: expect.objectContaining({
          wallet_id: a.id,
          amount: 150_000,
          balance_after: 350_000,
          transaction_id: debit.id,
        }),
      },
      {
        type: 'ledger.credit',
        status: 'PENDING',
        data: expect.objectContaining({
          wallet_id: b.id,
          amount: 150_000,
          balance_after: 151_000,
          transaction_id: credits[0].id,
        }),
      },
    ]);
  });

  it('uses "Wallet Transfer" as the default narration and accepts the virtual bank code', async () => {
    const a = await createWallet(t, 1_000);
    const b = await createWallet(t);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      destination_bank_code: '035',
      amount: 1_000,
    });
    expect(r.body.data.new_balance).toBe(0);
    expect((await t.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data.raw_narration).toBe(
      'Wallet Transfer',
    );
  });

  it('answers 422 INSUFFICIENT_FUNDS and moves nothing', async () => {
    const a = await createWallet(t, 999);
    const b = await createWallet(t);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 1_000,
    });
    expect([r.status, r.body.detail]).toEqual([
      422,
      {
        code: 'INSUFFICIENT_FUNDS',
        message: "insufficient funds: the wallet's balance is 999 kobo, and this needs 1000 kobo",
        request_id: 'req_00000006',
      },
    ]);
    expect([await balanceOf(t, a.id), await balanceOf(t, b.id)]).toEqual([999, 0]);
    expect((await t.call('GET', `/v1/wallets/${a.id}/transactions`)).body.data.total).toBe(1);
  });

  it('of two concurrent transfers of 70% each, exactly one succeeds', async () => {
    const a = await createWallet(t, 100_000);
    const b = await createWallet(t);
    const c = await createWallet(t);
    const results = await Promise.all([
      t.call('POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 70_000 }),
      t.call('POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: c.account_number, amount: 70_000 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.status === 422)!.body.detail.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(t, a.id)).toBe(30_000);
    expect((await balanceOf(t, b.id)) + (await balanceOf(t, c.id))).toBe(70_000);
  });

  it.each([
    ['a string', '5000', 'must be an integer number of kobo (a JSON number, not a string or a fraction)'],
    ['a float', 50.5, 'must be an integer number of kobo (a JSON number, not a string or a fraction)'],
    ['zero', 0, 'must be at least 1 kobo'],
    ['a negative number', -500, 'must be at least 1 kobo'],
    ['more than 10^13 kobo', 10_000_000_000_001, 'must be at most 10000000000000 kobo'],
    ['1e300', 1e300, expect.any(String)],
    ['null', null, 'must be an integer number of kobo (a JSON number, not a string or a fraction)'],
  ])('answers 400 VALIDATION_ERROR to an amount that is %s', async (_name, amount, message) => {
    const a = await createWallet(t, 5_000);
    const b = await createWallet(t);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount,
    });
    expect(r.status).toBe(400);
    expect(r.body.detail.code).toBe('VALIDATION_ERROR');
    expect(r.body.detail.fields).toEqual([{ field: 'amount', message }]);
    expect(await balanceOf(t, a.id)).toBe(5_000);
  });

  it('answers 400 to a transfer to the same wallet', async () => {
    const a = await createWallet(t, 5_000);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: a.account_number,
      amount: 1,
    });
    expect([r.status, r.body.detail.fields[0].field]).toEqual([400, 'destination_account_number']);
  });

  it('answers 409 WALLET_CLOSED from a closed wallet and to a closed wallet', async () => {
    const a = await createWallet(t, 5_000);
    const b = await createWallet(t, 5_000);
    await t.call('POST', `/v1/wallets/${b.id}/close`);
    const to = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 1,
    });
    expect([to.status, to.body.detail]).toEqual([
      409,
      { code: 'WALLET_CLOSED', message: 'the destination wallet is closed', request_id: 'req_00000008' },
    ]);
    const from = await t.call('POST', `/v1/wallets/${b.id}/transfer`, {
      destination_account_number: a.account_number,
      amount: 1,
    });
    expect([from.status, from.body.detail]).toEqual([
      409,
      { code: 'WALLET_CLOSED', message: 'the source wallet is closed', request_id: 'req_00000009' },
    ]);
  });

  it('answers 403 TRANSFERS_DISABLED when allow_transfers_out is false, and credits still land', async () => {
    const a = await createWallet(t, 5_000, { allow_transfers_out: false });
    const b = await createWallet(t, 5_000);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 1,
    });
    expect([r.status, r.body.detail.code]).toEqual([403, 'TRANSFERS_DISABLED']);
    const inbound = await t.call('POST', `/v1/wallets/${b.id}/transfer`, {
      destination_account_number: a.account_number,
      amount: 100,
    });
    expect(inbound.status).toBe(200);
    expect(await balanceOf(t, a.id)).toBe(5_100);
  });

  it("answers 404 for a source wallet that is not the caller's", async () => {
    const a = await createWallet(t, 5_000);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Other' });
    const r = await t.call(
      'POST',
      `/v1/wallets/${a.id}/transfer`,
      { destination_account_number: a.account_number, amount: 1 },
      { key: other.body.data.api_key },
    );
    expect([r.status, r.body.detail.code]).toEqual([404, 'NOT_FOUND']);
    expect(await balanceOf(t, a.id)).toBe(5_000);
  });
});

describe('destinations that are not the developer’s own wallets', () => {
  it('answers 400 naming destination_bank_code when the number is not one of your wallets', async () => {
    const a = await createWallet(t, 5_000);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: '0123456789',
      amount: 100,
    });
    expect(r.status).toBe(400);
    expect(r.body.detail.fields[0].field).toBe('destination_bank_code');
  });

  it("treats another developer's wallet as external: 400 without a bank code", async () => {
    const a = await createWallet(t, 5_000);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Other' });
    const theirs = await t.call(
      'POST',
      '/v1/wallets',
      { customer_reference: 'x', first_name: 'X', last_name: 'Y', email: 'x@y.ng' },
      { key: other.body.data.api_key },
    );
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: theirs.body.data.account_number,
      amount: 100,
    });
    expect(r.status).toBe(400);
    expect(await balanceOf(t, a.id)).toBe(5_000);
  });

  it('rejects a malformed account number', async () => {
    const a = await createWallet(t, 5_000);
    const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: '12345',
      amount: 100,
    });
    expect(r.body.detail.fields).toEqual([
      { field: 'destination_account_number', message: 'must be exactly 10 digits' },
    ]);
  });
});
