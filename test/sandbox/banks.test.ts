import { describe, expect, it } from 'vitest';
import { nigerianName } from '../../src/engine/banks/names.js';
import { isValidNubanForCode, makeNuban } from '../../src/engine/wallets/nuban.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox();

const resolve = (account_number: unknown, bank_code: unknown) =>
  t.call('POST', '/v1/banks/resolve', { account_number, bank_code });

describe('GET /v1/banks', () => {
  it('lists at least 25 banks with CBN codes, and fintech and microfinance codes, with only items in data', async () => {
    const r = await t.call('GET', '/v1/banks');
    expect(Object.keys(r.body.data)).toEqual(['items']);
    const byCode = new Map(r.body.data.items.map((b: { code: string; name: string }) => [b.code, b.name]));
    expect(byCode.size).toBeGreaterThanOrEqual(25);
    expect(Object.fromEntries(['044', '058', '057', '033', '011', '035'].map((c) => [c, byCode.get(c)]))).toEqual({
      '044': 'Access Bank',
      '058': 'Guaranty Trust Bank',
      '057': 'Zenith Bank',
      '033': 'United Bank for Africa',
      '011': 'First Bank of Nigeria',
      '035': 'Wema Bank',
    });
    expect(byCode.get('50211')).toBe('Kuda Microfinance Bank');
    expect(byCode.get('999992')).toBe('OPay');
    expect((await t.call('GET', '/v1/banks', undefined, { key: null })).status).toBe(401);
  });
});

describe('POST /v1/banks/resolve', () => {
  it('names a valid NUBAN deterministically, the same every time', async () => {
    const account = makeNuban('058', '012345678');
    const first = await resolve(account, '058');
    expect(first.body).toEqual({
      success: true,
      data: { account_number: account, account_name: nigerianName('058', account) },
    });
    expect(first.body.data.account_name).toMatch(/^[A-Z]+ [A-Z]+$/);
    expect((await resolve(account, '058')).body).toEqual(first.body);
  });

  it('refuses a number whose check digit is wrong for the bank with 422 ACCOUNT_NOT_FOUND', async () => {
    const account = makeNuban('058', '012345678');
    const wrong = `${account.slice(0, 9)}${(Number(account[9]) + 1) % 10}`;
    const r = await resolve(wrong, '058');
    expect([r.status, r.body.detail.code, r.body.detail.message]).toEqual([
      422,
      'ACCOUNT_NOT_FOUND',
      `account ${wrong} at Guaranty Trust Bank (058) could not be resolved`,
    ]);
  });

  it('uses the 6-digit rule for fintech codes', async () => {
    let serial = 100000000;
    while (!isValidNubanForCode(`${serial}0`, '999992')) serial++;
    expect((await resolve(`${serial}0`, '999992')).status).toBe(200);
    expect((await resolve(`${serial}1`, '999992')).status).toBe(422);
  });

  it("resolves the sandbox's own virtual accounts to the wallet's account_name", async () => {
    const w = await createWallet(t);
    expect((await resolve(w.account_number, '035')).body.data.account_name).toBe('SANDBOX / ADA OBI');
  });

  it.each([
    ['0000000000', 422, 'ACCOUNT_NOT_FOUND', undefined],
    ['1111111111', 200, undefined, 'SANDBOX FAILED PAYOUT'],
    ['2222222222', 200, undefined, 'SANDBOX PENDING PAYOUT'],
  ])('answers the magic number %s at any listed bank', async (account, status, code, name) => {
    for (const bank of ['044', '50211']) {
      const r = await resolve(account, bank);
      expect(r.status).toBe(status);
      if (code) expect(r.body.detail.code).toBe(code);
      else expect(r.body.data.account_name).toBe(name);
    }
  });

  it('answers 400 INVALID_BANK_CODE to a bank that is not listed, and 400 to a bad account number', async () => {
    const r = await resolve('1111111111', '999');
    expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
      400,
      'INVALID_BANK_CODE',
      [{ field: 'bank_code', message: 'not a listed bank code' }],
    ]);
    for (const bad of ['12345', '12345678901', 1234567890, 'abcdefghij']) {
      const v = await resolve(bad, '058');
      expect([v.status, v.body.detail.code, v.body.detail.fields[0].field]).toEqual([
        400,
        'VALIDATION_ERROR',
        'account_number',
      ]);
    }
  });
});

describe('GET /sandbox/magic', () => {
  it('lists every magic account and the rules for the rest', async () => {
    const r = await t.call('GET', '/sandbox/magic');
    expect(r.body.data.items.map((m: { account_number: string }) => m.account_number)).toEqual([
      '0000000000',
      '1111111111',
      '2222222222',
      'any other with a valid NUBAN check digit for the bank',
      'any other',
    ]);
  });
});
