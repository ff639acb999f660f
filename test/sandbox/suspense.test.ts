import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import {
  createTestSandbox,
  createWallet,
  type TestSandbox,
  useSandbox,
  logsWithPayload,
  balanceOf,
} from '../helpers/sandbox.js';
import { typeName } from '../../src/engine/events/stored.js';

const t = useSandbox();

const inbound = (body: Record<string, unknown>, key?: string) =>
  t.call('POST', '/sandbox/inbound-transfers', body, key ? { key } : {});
const system = async (kind: 'SUSPENSE_HOLDING' | 'DISMISSED' | 'PROVIDER_SETTLEMENT') =>
  (
    await t.sandbox.db
      .selectFrom('accounts')
      .select('balance')
      .where('developer_id', '=', t.developerId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow()
  ).balance;
const resolve = (id: string, body: Record<string, unknown>, key?: string) =>
  t.call('POST', `/v1/suspense/${id}/resolve`, body, key ? { key } : {});

describe('routing of inbound payments (decisions: Inbound payments)', () => {
  it('holds a low-confidence payment as AI_LOW_CONFIDENCE, out of every ledger endpoint, with suspense.created', async () => {
    const w = await createWallet(t);
    const r = await inbound({
      account_number: w.account_number,
      amount: 40_000,
      narration: 'asdfgh',
      sender_account: '0690000031',
      sender_bank_code: '044',
    });
    expect(r.body.data.outcome).toBe('SUSPENDED');
    expect(r.body.data.suspense_item).toMatchObject({
      reason: 'AI_LOW_CONFIDENCE',
      status: 'PENDING',
      amount: 40_000,
      service_intelligence: { extracted_intent: 'unknown', confidence_score: 0.3, flags: ['UNCLEAR_NARRATION'] },
      raw_payload: {
        account_number: w.account_number,
        amount: 40_000,
        narration: 'asdfgh',
        sender_account: '0690000031',
        sender_bank_code: '044',
        sender_name: 'SANDBOX SENDER',
        provider_reference: expect.any(String),
      },
    });
    expect(await balanceOf(t, w.id)).toBe(0);
    expect((await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.total).toBe(0);
    expect(await system('SUSPENSE_HOLDING')).toBe(40_000);
    const created = (await logsWithPayload(t, 'suspense.created')).at(0)!;
    expect(JSON.parse(created.payload).data).toMatchObject({
      suspense_id: r.body.data.suspense_item.id,
      reason: 'AI_LOW_CONFIDENCE',
      amount: 40_000,
    });
  });

  it('holds a risk-flagged payment as AI_RISK_FLAG with status FLAGGED', async () => {
    const w = await createWallet(t);
    const r = await inbound({ account_number: w.account_number, amount: 1_000, narration: 'rent SANDBOX-RISK' });
    expect(r.body.data.suspense_item).toMatchObject({
      reason: 'AI_RISK_FLAG',
      status: 'FLAGGED',
      service_intelligence: { flags: ['SUSPECTED_FRAUD'] },
    });
  });

  it('holds a payment that is both risky and unclear as AI_RISK_FLAG (FLAGGED): fraud review before a missing purpose', async () => {
    const w = await createWallet(t);
    for (const narration of ['asdfgh SANDBOX-RISK', 'rent SANDBOX-RISK SANDBOX-LOW-CONFIDENCE']) {
      const r = await inbound({ account_number: w.account_number, amount: 1_000, narration });
      expect(r.body.data.suspense_item.service_intelligence.confidence_score).toBeLessThan(0.5);
      expect(r.body.data.suspense_item).toMatchObject({ reason: 'AI_RISK_FLAG', status: 'FLAGGED' });
    }
    expect(await balanceOf(t, w.id)).toBe(0);
  });

  it('credits the everyday narrations that used to be held, as a general payment', async () => {
    const w = await createWallet(t);
    for (const narration of ['payment', 'top up', 'part payment', 'test']) {
      const r = await inbound({ account_number: w.account_number, amount: 1_000, narration });
      expect([narration, r.body.data.outcome, r.body.data.transaction?.service_intelligence.suggested_label]).toEqual([
        narration,
        'CREDITED',
        'General payment',
      ]);
    }
    expect(await balanceOf(t, w.id)).toBe(4_000);
  });

  it("holds what the wallet's system_prompt says to review", async () => {
    const w = await createWallet(t, 0, { system_prompt: 'Rent wallet. Review any payment above 1,000,000 naira.' });
    const small = await inbound({ account_number: w.account_number, amount: 50_000_000, narration: 'rent March' });
    expect(small.body.data.outcome).toBe('CREDITED');
    expect(small.body.data.transaction.service_intelligence.explanation).toContain('system prompt expects rent: +0.15');
    const large = await inbound({ account_number: w.account_number, amount: 150_000_000, narration: 'rent March' });
    expect(large.body.data.suspense_item).toMatchObject({ reason: 'AI_RISK_FLAG', status: 'FLAGGED' });
  });

  it('checks a closed wallet before the analysis', async () => {
    const w = await createWallet(t);
    await t.call('POST', `/v1/wallets/${w.id}/close`);
    const r = await inbound({ account_number: w.account_number, amount: 1_000, narration: '' });
    expect(r.body.data.suspense_item).toMatchObject({
      reason: 'WALLET_CLOSED',
      status: 'PENDING',
      service_intelligence: { flags: ['EMPTY_NARRATION'] },
    });
  });

  it('gives the same analysis in two sandboxes, byte for byte', async () => {
    const other = await createTestSandbox({ seed: 'another' });
    try {
      const analyse = async (s: TestSandbox) => {
        const w = await createWallet(s, 0, { system_prompt: 'Expect school fees' });
        const r = await s.call('POST', '/sandbox/inbound-transfers', {
          account_number: w.account_number,
          amount: 5_000,
          narration: 'TRF FRM CHIDI EZE SCHOOL FEES JSS2',
        });
        return JSON.stringify(r.body.data.transaction.service_intelligence);
      };
      expect(await analyse(t)).toBe(await analyse(other));
    } finally {
      await other.close();
    }
  });
});

describe('GET /v1/suspense', () => {
  it('lists with status and reason filters and paging', async () => {
    const open = await createWallet(t);
    const closed = await createWallet(t);
    await t.call('POST', `/v1/wallets/${closed.id}/close`);
    await inbound({ account_number: closed.account_number, amount: 1 });
    await inbound({ account_number: open.account_number, amount: 2, narration: '' });
    await inbound({ account_number: open.account_number, amount: 3, narration: 'SANDBOX-RISK rent' });
    const all = (await t.call('GET', '/v1/suspense')).body.data;
    expect([all.total, all.page, all.limit]).toEqual([3, 1, 20]);
    expect(all.items.map((i: { amount: number }) => i.amount)).toEqual([1, 2, 3]);
    expect(
      (await t.call('GET', '/v1/suspense?status=FLAGGED')).body.data.items.map((i: { amount: number }) => i.amount),
    ).toEqual([3]);
    expect(
      (await t.call('GET', '/v1/suspense?reason=WALLET_CLOSED')).body.data.items.map(
        (i: { amount: number }) => i.amount,
      ),
    ).toEqual([1]);
    expect(
      (await t.call('GET', '/v1/suspense?limit=1&page=2&order=desc')).body.data.items.map(
        (i: { amount: number }) => i.amount,
      ),
    ).toEqual([2]);
    expect((await t.call('GET', '/v1/suspense?reason=BAD')).status).toBe(400);
    expect((await t.call('GET', '/v1/suspense?status=OPEN')).status).toBe(400);
  });
});

describe('POST /v1/suspense/:id/resolve', () => {
  async function held(amount = 25_000, extra: Record<string, unknown> = {}) {
    const w = await createWallet(t);
    const r = await inbound({ account_number: w.account_number, amount, narration: 'asdfgh', ...extra });
    return { wallet: w, item: r.body.data.suspense_item };
  }

  it('CREDIT_WALLET credits an active wallet with the payment’s sender, narration and reference, and fires ledger.credit and suspense.resolved', async () => {
    const { item } = await held(25_000, {
      sender_name: 'BISI ALABI',
      sender_account: '0690000031',
      sender_bank_code: '044',
    });
    const target = await createWallet(t, 1_000);
    const r = await resolve(item.id, { action: 'CREDIT_WALLET', target_wallet_id: target.id, note: 'customer called' });
    expect(r.body).toEqual({
      success: true,
      data: {
        message: `credited 25000 kobo to wallet ${target.id} (Ada Obi, ${target.customer_reference})`,
        action: 'CREDIT_WALLET',
        transaction_id: expect.any(String),
      },
    });
    expect(await balanceOf(t, target.id)).toBe(26_000);
    const credit = (await t.call('GET', `/v1/transactions/${r.body.data.transaction_id}`)).body.data;
    expect(credit).toMatchObject({
      wallet_id: target.id,
      type: 'CREDIT',
      amount: 25_000,
      balance_before: 1_000,
      balance_after: 26_000,
      sender_name: 'BISI ALABI',
      sender_account: '0690000031',
      raw_narration: 'asdfgh',
      provider_reference: item.provider_reference,
      service_intelligence: { extracted_intent: 'unknown' },
    });
    const after = (await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data;
    expect(after).toMatchObject({
      status: 'RESOLVED',
      resolved_at: '2026-11-21T09:30:00.000Z',
      resolution_note: 'customer called',
      resolution_action: 'CREDIT_WALLET',
      resolution_transaction_id: credit.id,
    });
    expect(await system('SUSPENSE_HOLDING')).toBe(0);
    const types = (await t.sandbox.db.selectFrom('events').select('type_code').orderBy('seq').execute()).map((e) =>
      typeName(e.type_code),
    );
    expect(types.slice(-2)).toEqual(['ledger.credit', 'suspense.resolved']);
  });

  it('DISMISS moves the money to dismissed and changes no wallet', async () => {
    const { wallet, item } = await held(7_000);
    const r = await resolve(item.id, { action: 'DISMISS' });
    expect(r.body.data).toEqual({ message: 'dismissed: 7000 kobo moved to the dismissed account', action: 'DISMISS' });
    expect(await system('DISMISSED')).toBe(7_000);
    expect(await system('SUSPENSE_HOLDING')).toBe(0);
    expect(await balanceOf(t, wallet.id)).toBe(0);
  });

  it('REFUND pays the sender back through the provider without a fee', async () => {
    const sender = makeNuban('058', '555666777');
    const { item } = await held(9_000, { sender_account: sender, sender_bank_code: '058' });
    const r = await resolve(item.id, { action: 'REFUND' });
    expect(r.body.data).toMatchObject({
      action: 'REFUND',
      provider_reference: expect.stringMatching(/^\d{30}$/),
      message: expect.stringContaining(`refunded 9000 kobo to`),
    });
    expect(await system('SUSPENSE_HOLDING')).toBe(0);
    expect(await system('PROVIDER_SETTLEMENT')).toBe(0);
  });

  it("REFUND to another developer's virtual account arrives there as an inbound transfer", async () => {
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data.api_key;
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'o', first_name: 'O', last_name: 'P', email: 'o@p.ng' },
        { key: other },
      )
    ).body.data;
    const { item } = await held(3_000, { sender_account: theirs.account_number, sender_bank_code: '035' });
    await resolve(item.id, { action: 'REFUND' });
    expect((await t.call('GET', `/v1/wallets/${theirs.id}`, undefined, { key: other })).body.data.balance).toBe(3_000);
  });

  it('REFUND to a magic account follows its name enquiry and settles at once', async () => {
    // docs/decisions.md: 0000000000 is 422, 1111111111 and 2222222222 are refunded.
    const { item: none } = await held(500, { sender_account: '0000000000', sender_bank_code: '058' });
    const refused = await resolve(none.id, { action: 'REFUND' });
    expect([refused.status, refused.body.detail.code]).toEqual([422, 'ACCOUNT_NOT_FOUND']);
    for (const sender_account of ['1111111111', '2222222222']) {
      const { item } = await held(700, { sender_account, sender_bank_code: '058' });
      const r = await resolve(item.id, { action: 'REFUND' });
      expect([
        sender_account,
        r.status,
        (await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status,
      ]).toEqual([sender_account, 200, 'RESOLVED']);
    }
    expect(await system('SUSPENSE_HOLDING')).toBe(500);
  });

  it('REFUND of a payment with no sender account is 422 ACCOUNT_NOT_FOUND and changes nothing', async () => {
    const { item } = await held(1_000);
    const r = await resolve(item.id, { action: 'REFUND' });
    expect([r.status, r.body.detail.code]).toEqual([422, 'ACCOUNT_NOT_FOUND']);
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
    expect(await system('SUSPENSE_HOLDING')).toBe(1_000);
  });

  it('resolves a FLAGGED item too, and a second resolve is 409 SUSPENSE_ALREADY_RESOLVED', async () => {
    const w = await createWallet(t);
    const item = (await inbound({ account_number: w.account_number, amount: 500, narration: 'SANDBOX-RISK' })).body.data
      .suspense_item;
    expect((await resolve(item.id, { action: 'DISMISS' })).status).toBe(200);
    const again = await resolve(item.id, { action: 'DISMISS' });
    expect([again.status, again.body.detail.code]).toEqual([409, 'SUSPENSE_ALREADY_RESOLVED']);
    expect(await system('DISMISSED')).toBe(500);
  });

  it('refuses a wrong or closed target wallet, and a missing or misplaced target_wallet_id', async () => {
    const { item } = await held(2_000);
    const missing = await resolve(item.id, { action: 'CREDIT_WALLET' });
    expect([missing.status, missing.body.detail.fields]).toEqual([
      400,
      [{ field: 'target_wallet_id', message: 'is required for CREDIT_WALLET' }],
    ]);
    const misplaced = await resolve(item.id, { action: 'DISMISS', target_wallet_id: 'x' });
    expect(misplaced.body.detail.fields).toEqual([
      { field: 'target_wallet_id', message: 'is only used with CREDIT_WALLET, not DISMISS' },
    ]);
    const unknown = await resolve(item.id, { action: 'CREDIT_WALLET', target_wallet_id: 'nope' });
    expect([unknown.status, unknown.body.detail]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'wallet not found', request_id: 'req_00000006' },
    ]);
    const closed = await createWallet(t);
    await t.call('POST', `/v1/wallets/${closed.id}/close`);
    const toClosed = await resolve(item.id, { action: 'CREDIT_WALLET', target_wallet_id: closed.id });
    expect([toClosed.status, toClosed.body.detail.code]).toEqual([409, 'WALLET_CLOSED']);
    const bad = await resolve(item.id, { action: 'KEEP' });
    expect(bad.body.detail.fields).toEqual([{ field: 'action', message: 'must be CREDIT_WALLET, DISMISS or REFUND' }]);
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('PENDING');
  });

  it("hides another developer's item, and refuses another developer's wallet as the target", async () => {
    const { item } = await held(2_000);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data.api_key;
    expect((await resolve(item.id, { action: 'DISMISS' }, other)).status).toBe(404);
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`, undefined, { key: other })).status).toBe(404);
    expect((await t.call('GET', '/v1/suspense', undefined, { key: other })).body.data.total).toBe(0);
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'o', first_name: 'O', last_name: 'P', email: 'o@p.ng' },
        { key: other },
      )
    ).body.data;
    expect((await resolve(item.id, { action: 'CREDIT_WALLET', target_wallet_id: theirs.id })).status).toBe(404);
  });
});
