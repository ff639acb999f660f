import { describe, expect, it } from 'vitest';
import { createWallet, useSandbox, logsWithPayload } from '../helpers/sandbox.js';
import { typeName } from '../../src/engine/events/stored.js';

const t = useSandbox({ auditAfter: true });

describe('POST /sandbox/inbound-transfers', () => {
  it('credits an active wallet with a SETTLED CREDIT and a ledger.credit delivery', async () => {
    const w = await createWallet(t);
    const r = await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: w.account_number,
      amount: 250_000,
      sender_name: 'BOLA ADE',
      sender_account: '0690000031',
      sender_bank_code: '044',
      narration: 'school fees',
      provider_reference: '000013261121093000000000000001',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      outcome: 'CREDITED',
      transaction: expect.objectContaining({
        wallet_id: w.id,
        developer_id: t.developerId,
        type: 'CREDIT',
        amount: 250_000,
        balance_before: 0,
        balance_after: 250_000,
        currency: 'NGN',
        status: 'SETTLED',
        provider_reference: '000013261121093000000000000001',
        sender_name: 'BOLA ADE',
        sender_account: '0690000031',
        raw_narration: 'school fees',
        service_intelligence: {
          raw_narration: 'school fees',
          extracted_intent: 'school_fees',
          confidence_score: 0.95,
          flags: [],
          suggested_label: 'School fees',
          explanation: ['matched SCHOOL FEES, SCHOOL, FEES → school_fees (score 9)'],
        },
      }),
    });
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(250_000);
    const log = (await logsWithPayload(t, 'ledger.credit')).at(0)!;
    expect(log).toMatchObject({ status: 'PENDING', attempt_count: 0, http_status_code: null, delivered_at: null });
    expect(JSON.parse(log.payload)).toEqual({
      event_id: log.event_id,
      event_type: 'ledger.credit',
      api_version: '2026-11-01',
      created_at: '2026-11-21T09:30:00.000Z',
      data: expect.objectContaining({
        wallet_id: w.id,
        amount: 250_000,
        transaction_id: r.body.data.transaction.id,
        balance_after: 250_000,
      }),
    });
  });

  it('fills in a sender, a narration and a 30-digit NIP session id when they are left out', async () => {
    const w = await createWallet(t);
    const r = await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 100 });
    expect(r.body.data.transaction).toMatchObject({
      sender_name: 'SANDBOX SENDER',
      sender_account: '',
      raw_narration: 'Transfer from SANDBOX SENDER',
    });
    expect(r.body.data.transaction.provider_reference).toMatch(/^000017\d{24}$/);
  });

  it('is idempotent on provider_reference: the same payment again moves nothing', async () => {
    const w = await createWallet(t);
    const body = { account_number: w.account_number, amount: 5_000, provider_reference: 'REF-1' };
    const first = await t.call('POST', '/sandbox/inbound-transfers', body);
    const second = await t.call('POST', '/sandbox/inbound-transfers', body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(5_000);
    expect((await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.total).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED to a known provider_reference with different content', async () => {
    const w = await createWallet(t);
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: w.account_number,
      amount: 5_000,
      provider_reference: 'REF-1',
    });
    const r = await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: w.account_number,
      amount: 6_000,
      provider_reference: 'REF-1',
    });
    expect([r.status, r.body.detail.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(5_000);
  });

  it("answers 404 for an unknown account number and for another developer's", async () => {
    const unknown = await t.call('POST', '/sandbox/inbound-transfers', { account_number: '0123456789', amount: 100 });
    expect([unknown.status, unknown.body.detail.code]).toEqual([404, 'NOT_FOUND']);
    const w = await createWallet(t);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Other' });
    const theirs = await t.call(
      'POST',
      '/sandbox/inbound-transfers',
      { account_number: w.account_number, amount: 100 },
      { key: other.body.data.api_key },
    );
    expect(theirs.status).toBe(404);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(0);
  });

  it('holds a payment to a closed wallet in suspense (WALLET_CLOSED) on suspense_holding', async () => {
    const w = await createWallet(t, 1_000);
    await t.call('POST', `/v1/wallets/${w.id}/close`);
    const r = await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: w.account_number,
      amount: 7_500,
      sender_name: 'TUNDE',
      narration: 'rent',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      outcome: 'SUSPENDED',
      suspense_item: expect.objectContaining({
        developer_id: t.developerId,
        account_number: w.account_number,
        amount: 7_500,
        sender_name: 'TUNDE',
        raw_narration: 'rent',
        reason: 'WALLET_CLOSED',
        status: 'PENDING',
        resolved_at: null,
        resolution_note: null,
        raw_payload: expect.objectContaining({ account_number: w.account_number, amount: 7_500, narration: 'rent' }),
      }),
    });
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000);
    const txs = await t.call('GET', `/v1/wallets/${w.id}/transactions`);
    expect(txs.body.data.total).toBe(1);
    const holding = await t.sandbox.db
      .selectFrom('accounts')
      .select('balance')
      .where('developer_id', '=', t.developerId)
      .where('kind', '=', 'SUSPENSE_HOLDING')
      .executeTakeFirstOrThrow();
    expect(holding.balance).toBe(7_500);
    const types = (await t.sandbox.db.selectFrom('events').select('type_code').orderBy('seq').execute()).map((e) =>
      typeName(e.type_code),
    );
    expect(types).toEqual(['ledger.credit', 'wallet.closed', 'suspense.created']);
  });

  it.each([
    [{ amount: 100 }, 'account_number', 'is required'],
    [{ account_number: '01234', amount: 100 }, 'account_number', 'must be exactly 10 digits'],
    [
      { account_number: '0123456789', amount: '100' },
      'amount',
      'must be an integer number of kobo (a JSON number, not a string or a fraction)',
    ],
    [
      { account_number: '0123456789', amount: 100, sender_account: 'abc' },
      'sender_account',
      'must be exactly 10 digits',
    ],
    [
      { account_number: '0123456789', amount: 100, narration: 'x'.repeat(101) },
      'narration',
      'must be at most 100 characters',
    ],
  ])('answers 400 to %j', async (body, field, message) => {
    const r = await t.call('POST', '/sandbox/inbound-transfers', body);
    expect(r.status).toBe(400);
    expect(r.body.detail.fields).toEqual([{ field, message }]);
  });
});

describe('GET /v1/wallets/:id/transactions', () => {
  it('lists oldest first with paging, type filter and desc order', async () => {
    const a = await createWallet(t);
    const b = await createWallet(t);
    for (const amount of [100, 200, 300])
      await t.call('POST', '/sandbox/inbound-transfers', { account_number: a.account_number, amount });
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, { destination_account_number: b.account_number, amount: 50 });
    const all = (await t.call('GET', `/v1/wallets/${a.id}/transactions`)).body.data;
    expect(all.items.map((x: { type: string; amount: number }) => `${x.type}:${x.amount}`)).toEqual([
      'CREDIT:100',
      'CREDIT:200',
      'CREDIT:300',
      'DEBIT:50',
    ]);
    expect([all.total, all.page, all.limit]).toEqual([4, 1, 20]);
    const page2 = (await t.call('GET', `/v1/wallets/${a.id}/transactions?limit=3&page=2`)).body.data;
    expect(page2.items.map((x: { amount: number }) => x.amount)).toEqual([50]);
    const debits = (await t.call('GET', `/v1/wallets/${a.id}/transactions?type=DEBIT`)).body.data;
    expect([debits.total, debits.items[0].amount]).toEqual([1, 50]);
    const newest = (await t.call('GET', `/v1/wallets/${a.id}/transactions?order=desc&limit=1`)).body.data;
    expect([newest.items[0].amount, newest.total]).toEqual([50, 4]);
    expect((await t.call('GET', `/v1/wallets/${a.id}/transactions?type=REFUND`)).status).toBe(400);
    expect((await t.call('GET', `/v1/wallets/${a.id}/transactions?limit=500`)).status).toBe(400);
  });

  it('answers 404 for a transaction id that does not exist', async () => {
    const r = await t.call('GET', '/v1/transactions/nope');
    expect(r.body).toEqual({
      success: false,
      detail: { code: 'NOT_FOUND', message: 'transaction not found', request_id: 'req_00000001' },
    });
  });
});
