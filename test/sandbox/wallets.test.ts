import { describe, expect, it } from 'vitest';
import { isValidNuban } from '../../src/engine/wallets/nuban.js';
import { createWallet, expectCleanAudit, useSandbox, walletBody, logsWithPayload } from '../helpers/sandbox.js';

const t = useSandbox();

describe('POST /v1/wallets', () => {
  it('provisions an ACTIVE wallet with balance 0 on a valid Wema NUBAN', async () => {
    const r = await t.call('POST', '/v1/wallets', {
      customer_reference: 'user-42',
      first_name: 'Chiamaka',
      last_name: 'Eze',
      email: 'chiamaka@example.com',
      label: 'Savings',
      system_prompt: 'Expect rent payments',
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        developer_id: t.developerId,
        customer_reference: 'user-42',
        first_name: 'Chiamaka',
        last_name: 'Eze',
        email: 'chiamaka@example.com',
        label: 'Savings',
        account_number: expect.stringMatching(/^\d{10}$/),
        bank_name: 'Wema Bank',
        account_name: 'SANDBOX / CHIAMAKA EZE',
        balance: 0,
        currency: 'NGN',
        status: 'ACTIVE',
        system_prompt: 'Expect rent payments',
        allow_transfers_out: true,
        sub_account_id: null,
        created_at: '2026-11-21T09:30:00.000Z',
        closed_at: null,
      },
    });
    expect(isValidNuban(r.body.data.account_number, '035')).toBe(true);
  });

  it('gives every wallet its own account number', async () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 25; i++) numbers.add((await createWallet(t)).account_number);
    expect(numbers.size).toBe(25);
  });

  it('defaults label to the full name and keeps allow_transfers_out and sub_account_id as given', async () => {
    const r = await t.call(
      'POST',
      '/v1/wallets',
      walletBody({ allow_transfers_out: false, sub_account_id: 'sub_123' }),
    );
    expect(r.body.data).toMatchObject({
      label: 'Ada Obi',
      allow_transfers_out: false,
      sub_account_id: 'sub_123',
      system_prompt: '',
    });
  });

  it.each([
    ['a missing email', { email: undefined }, 'email', 'is required'],
    ['a bad email', { email: 'ada@' }, 'email', 'must be a valid email address'],
    ['an empty first name', { first_name: '   ' }, 'first_name', 'must not be empty'],
    ['a 101-character last name', { last_name: 'x'.repeat(101) }, 'last_name', 'must be at most 100 characters'],
    [
      'a 2,001-character system_prompt',
      { system_prompt: 'x'.repeat(2001) },
      'system_prompt',
      'must be at most 2000 characters',
    ],
    [
      'a string for allow_transfers_out',
      { allow_transfers_out: 'yes' },
      'allow_transfers_out',
      'must be true or false',
    ],
    ['a number for customer_reference', { customer_reference: 42 }, 'customer_reference', 'must be a string'],
  ])('answers 400 VALIDATION_ERROR to %s', async (_name, override, field, message) => {
    const body = walletBody(override);
    const r = await t.call('POST', '/v1/wallets', JSON.parse(JSON.stringify(body)));
    expect(r.status).toBe(400);
    expect(r.body.detail.code).toBe('VALIDATION_ERROR');
    expect(r.body.detail.fields).toEqual([{ field, message }]);
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
  });

  it('answers 400 UNSUPPORTED_CURRENCY to USD', async () => {
    const r = await t.call('POST', '/v1/wallets', walletBody({ currency: 'USD' }));
    expect([r.status, r.body.detail.code]).toEqual([400, 'UNSUPPORTED_CURRENCY']);
    expect((await t.call('POST', '/v1/wallets', walletBody({ currency: 'NGN' }))).status).toBe(201);
  });

  it('answers 409 DUPLICATE_CUSTOMER_REFERENCE for a reference this developer already used', async () => {
    await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'dup' }));
    const r = await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'dup' }));
    expect([r.status, r.body.detail.code]).toEqual([409, 'DUPLICATE_CUSTOMER_REFERENCE']);
    const other = await t.call('POST', '/sandbox/developers', { business_name: 'Other' });
    const theirs = await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'dup' }), {
      key: other.body.data.api_key,
    });
    expect(theirs.status).toBe(201);
  });

  it('refuses a business or person name with control characters, 400 on the field, and creates nothing', async () => {
    // Every account_name a name enquiry answers is made from these names.
    const rule =
      'must not contain control characters (tabs, line breaks, escape sequences) or bidirectional formatting characters';
    for (const business_name of ['Evil\u001b]0;owned\u0007 Pay', 'Two\nLines', 'Tab\tPay', 'C1\u009b2J']) {
      const r = await t.call('POST', '/sandbox/developers', { business_name });
      expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
        400,
        'VALIDATION_ERROR',
        [{ field: 'business_name', message: rule }],
      ]);
    }
    for (const field of ['first_name', 'last_name']) {
      const r = await t.call(
        'POST',
        '/v1/wallets',
        walletBody({ customer_reference: `ctl-${field}`, [field]: 'Ada\u001b[2J' }),
      );
      expect([r.status, r.body.detail.fields]).toEqual([400, [{ field, message: rule }]]);
    }
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    // Letters of any script, apostrophes, hyphens and dots are names.
    const fine = await t.call('POST', '/sandbox/developers', { business_name: "Ọ̀ṣun O'Neil-Pay Ltd." });
    expect([fine.status, fine.body.data.business_name]).toEqual([201, "Ọ̀ṣun O'Neil-Pay Ltd."]);
  });

  it('refuses a name with a right-to-left override, 400 on the field, and creates nothing', async () => {
    // An override makes a name enquiry read another name than the account's ("ADA OBI" for "IBO ADA").
    const rule =
      'must not contain control characters (tabs, line breaks, escape sequences) or bidirectional formatting characters';
    for (const mark of ['\u202e', '\u202d', '\u202a', '\u2066', '\u2069', '\u200f', '\u061c']) {
      const r = await t.call('POST', '/v1/wallets', walletBody({ first_name: `${mark}IBO`, last_name: 'ADA' }));
      expect([JSON.stringify(mark), r.status, r.body.detail?.fields]).toEqual([
        JSON.stringify(mark),
        400,
        [{ field: 'first_name', message: rule }],
      ]);
    }
    const developer = await t.call('POST', '/sandbox/developers', { business_name: 'Pay\u202eliame' });
    expect([developer.status, developer.body.detail?.fields]).toEqual([
      400,
      [{ field: 'business_name', message: rule }],
    ]);
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    // Right-to-left scripts themselves are names.
    const arabic = await t.call('POST', '/v1/wallets', walletBody({ first_name: 'أمينة', last_name: 'Bello' }));
    expect([arabic.status, arabic.body.data.account_name]).toEqual([201, 'SANDBOX / أمينة BELLO']);
  });
});

describe('GET and close', () => {
  it('answers 404 for an unknown id', async () => {
    const r = await t.call('GET', '/v1/wallets/00000000-0000-4000-8000-000000000000');
    // The developer's first request: its id is req_ and its number.
    expect(r.body).toEqual({
      success: false,
      detail: { code: 'NOT_FOUND', message: 'wallet not found', request_id: 'req_00000001' },
    });
    expect(r.headers['request-id']).toBe('req_00000001');
  });

  it('closes with the remaining balance, emits wallet.closed, and refuses a second close', async () => {
    const w = await createWallet(t, 12_345);
    const closed = await t.call('POST', `/v1/wallets/${w.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({
      id: w.id,
      status: 'CLOSED',
      balance: 12_345,
      closed_at: '2026-11-21T09:30:00.000Z',
    });
    const again = await t.call('POST', `/v1/wallets/${w.id}/close`);
    expect([again.status, again.body.detail.code]).toEqual([409, 'WALLET_CLOSED']);
    const events = await logsWithPayload(t, 'wallet.closed');
    expect(events).toHaveLength(1);
    expect(events[0]!.status).toBe('PENDING');
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      event_type: 'wallet.closed',
      api_version: '2026-11-01',
      data: { wallet_id: w.id, balance: 12_345 },
    });
    await expectCleanAudit(t);
  });
});

describe('/sandbox/wallets', () => {
  it('lists with paging, order and filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createWallet(t, 0, { customer_reference: `ref-${i}` })).id);
    await t.call('POST', `/v1/wallets/${ids[1]}/close`);
    const page = await t.call('GET', '/sandbox/wallets?page=2&limit=2');
    expect(page.body.data).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(page.body.data.items.map((w: { id: string }) => w.id)).toEqual(ids.slice(2, 4));
    const desc = await t.call('GET', '/sandbox/wallets?order=desc&limit=1');
    expect(desc.body.data.items[0].id).toBe(ids[4]);
    const closed = await t.call('GET', '/sandbox/wallets?status=CLOSED');
    expect(closed.body.data.items.map((w: { id: string }) => w.id)).toEqual([ids[1]]);
    const byRef = await t.call('GET', '/sandbox/wallets?customer_reference=ref-3');
    expect(byRef.body.data.items.map((w: { id: string }) => w.id)).toEqual([ids[3]]);
  });

  it.each([
    ['limit=101', 'limit', 'must be at most 100'],
    ['limit=0', 'limit', 'must be at least 1'],
    ['page=abc', 'page', 'must be a whole number'],
    ['page=1&page=2', 'page', 'was given more than once: give it once'],
    ['status=FROZEN', 'status', 'must be one of ACTIVE, CLOSED'],
    ['order=newest', 'order', 'must be one of asc, desc'],
    ['colour=red', 'colour', 'unknown field'],
  ])('answers 400 to ?%s, naming the field once', async (query, field, message) => {
    const r = await t.call('GET', `/sandbox/wallets?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.detail).toEqual({
      code: 'VALIDATION_ERROR',
      message: `${field} ${message}`,
      fields: [{ field, message }],
      request_id: 'req_00000001',
    });
  });

  it('PATCH sets allow_transfers_out, and refuses a closed wallet', async () => {
    const w = await createWallet(t, 0, { allow_transfers_out: false });
    const r = await t.call('PATCH', `/sandbox/wallets/${w.id}`, { allow_transfers_out: true });
    expect(r.body.data.allow_transfers_out).toBe(true);
    const bad = await t.call('PATCH', `/sandbox/wallets/${w.id}`, { allow_transfers_out: 'true' });
    expect(bad.status).toBe(400);
    await t.call('POST', `/v1/wallets/${w.id}/close`);
    const closed = await t.call('PATCH', `/sandbox/wallets/${w.id}`, { allow_transfers_out: false });
    expect([closed.status, closed.body.detail.code]).toEqual([409, 'WALLET_CLOSED']);
  });
});
