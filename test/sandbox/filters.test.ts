import { beforeAll, describe, expect, it } from 'vitest';
import { createWallet, expectCleanAudit, T0, useSandbox } from '../helpers/sandbox.js';

// The filters support staff find a payment by (decisions: Requests and validation), on the four
// lists that take them: a small ledger over two days of the manual clock, each filter matching some
// rows and not others.
const t = useSandbox({ scope: 'all', auditAfter: true });

const DAY = 86_400;
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();
let ada: { id: string; account_number: string };
let bayo: { id: string; account_number: string };
let ref = 0;
const nextRef = () => `0000${String(++ref).padStart(26, '0')}`;

async function credit(
  wallet: { account_number: string },
  amount: number,
  sender_name: string,
  narration = 'school fees',
) {
  const provider_reference = nextRef();
  const r = await t.call('POST', '/sandbox/inbound-transfers', {
    account_number: wallet.account_number,
    amount,
    sender_name,
    sender_account: '0123456789',
    sender_bank_code: '058',
    narration,
    provider_reference,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { ...(r.body.data.transaction ?? r.body.data.suspense_item), provider_reference };
}

const list = async (path: string) => {
  const r = await t.call('GET', path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { items: { id: string }[]; total: number };
};
const ids = async (path: string) => {
  const page = await list(path);
  expect(page.total).toBe(page.items.length);
  return page.items.map((item) => item.id);
};

let day1: { adaObi: string; aisha: string; held: string };
let day2: { tunde: string; lovelace: string; flagged: string; debit: string };

beforeAll(async () => {
  ada = await createWallet(t, 0, { customer_reference: 'ada-ref', first_name: 'Ngozi', last_name: 'Eze' });
  bayo = await createWallet(t, 0, { customer_reference: 'bayo-ref', first_name: 'Bayo', last_name: 'Ogun' });
  const adaObi = await credit(ada, 700_000, 'OBI ADA NKECHI');
  const aisha = await credit(bayo, 250_000, 'Aisha Bello');
  const held = await credit(ada, 50_000, 'Chidi Okeke', 'SANDBOX-LOW-CONFIDENCE');
  await t.call('POST', '/sandbox/clock/advance', { seconds: DAY });
  const tunde = await credit(ada, 150_000, 'Tunde Bakare');
  const lovelace = await credit(bayo, 700_000, 'ada lovelace');
  const flagged = await credit(bayo, 700_000, 'Emeka Ada', 'SANDBOX-RISK');
  const transfer = await t.call('POST', `/v1/wallets/${ada.id}/transfer`, {
    destination_account_number: bayo.account_number,
    amount: 100_000,
  });
  expect(transfer.status).toBe(200);
  day1 = { adaObi: adaObi.id, aisha: aisha.id, held: held.id };
  day2 = { tunde: tunde.id, lovelace: lovelace.id, flagged: flagged.id, debit: transfer.body.data.transaction_id };
});

describe('GET /v1/transactions: every wallet of the caller', () => {
  it('lists all wallets oldest first (desc newest first) in the per-wallet item shape, and pages', async () => {
    const all = await list('/v1/transactions?limit=100');
    const credit = all.items.find((item) => item.id === day2.lovelace)!;
    expect(credit).toEqual((await t.call('GET', `/v1/transactions/${day2.lovelace}`)).body.data);
    const everything = all.items.map((item) => item.id);
    expect(everything.slice(0, 4)).toEqual([day1.adaObi, day1.aisha, day2.tunde, day2.lovelace]);
    expect(all.total).toBe(6); // four credits, the transfer's debit and its credit
    expect(await ids('/v1/transactions?order=desc&limit=100')).toEqual([...everything].reverse());
    const second = await list('/v1/transactions?limit=4&page=2');
    expect([second.total, second.items.map((item) => item.id)]).toEqual([6, everything.slice(4)]);
  });

  it('filters by time, amount, sender, provider reference, status, type and wallet, alone and together', async () => {
    expect(await ids(`/v1/transactions?until=${iso(60)}`)).toEqual([day1.adaObi, day1.aisha]);
    expect(await ids(`/v1/transactions?since=${iso(DAY)}&type=CREDIT`)).toEqual([
      day2.tunde,
      day2.lovelace,
      expect.any(String),
    ]);
    expect(
      await ids(`/v1/transactions?since=${encodeURIComponent(iso(DAY).replace('Z', '+01:00'))}&until=${iso(DAY)}`),
    ).toEqual([day2.tunde, day2.lovelace, day2.debit, expect.any(String)]);
    expect(await ids('/v1/transactions?amount_min=700000&amount_max=700000')).toEqual([day1.adaObi, day2.lovelace]);
    expect(await ids('/v1/transactions?amount_min=200000')).toEqual([day1.adaObi, day1.aisha, day2.lovelace]);
    expect(await ids('/v1/transactions?sender=ADA')).toEqual([day1.adaObi, day2.lovelace]);
    expect(await ids('/v1/transactions?sender=%20nkechi%20')).toEqual([day1.adaObi]);
    const reference = (
      (await t.call('GET', `/v1/transactions/${day2.tunde}`)).body.data as { provider_reference: string }
    ).provider_reference;
    expect(await ids(`/v1/transactions?provider_reference=${reference}`)).toEqual([day2.tunde]);
    expect(await ids('/v1/transactions?status=PENDING,FAILED')).toEqual([]);
    expect((await list('/v1/transactions?status=SETTLED,PENDING')).total).toBe(6);
    expect(await ids(`/v1/transactions?wallet_id=${ada.id}&type=CREDIT`)).toEqual([day1.adaObi, day2.tunde]);
    expect(await ids('/v1/transactions?customer_reference=bayo-ref&sender=ada')).toEqual([day2.lovelace]);
    expect(await ids(`/v1/transactions?customer_reference=bayo-ref&wallet_id=${ada.id}`)).toEqual([]);
    expect(await ids(`/v1/transactions?wallet_id=${ada.id}&since=${iso(DAY)}&amount_max=100000&type=DEBIT`)).toEqual([
      day2.debit,
    ]);
    expect(await ids('/v1/transactions?sender=nobody')).toEqual([]);
  });

  it("matches nothing of another developer's: its wallet id, its customer reference, its rows", async () => {
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'OTHER' })).body.data;
    const theirs = await t.call(
      'POST',
      '/v1/wallets',
      { customer_reference: 'ada-ref', first_name: 'Ada', last_name: 'Obi', email: 'o@example.com' },
      { key: other.api_key },
    );
    expect(await ids(`/v1/transactions?wallet_id=${theirs.body.data.id}`)).toEqual([]);
    const as = (path: string) => t.call('GET', path, undefined, { key: other.api_key });
    expect((await as('/v1/transactions')).body.data).toEqual({ items: [], total: 0, page: 1, limit: 20 });
    expect((await as(`/v1/transactions?wallet_id=${ada.id}`)).body.data.total).toBe(0);
    expect((await as('/v1/transactions?customer_reference=ada-ref')).body.data.total).toBe(0);
    expect((await as(`/v1/suspense?wallet_id=${ada.id}`)).body.data.total).toBe(0);
    expect((await as(`/v1/webhook-logs?wallet_id=${ada.id}`)).body.data.total).toBe(0);
    // Its own list holds its own rows, filtered as anyone's.
    await t.call(
      'POST',
      '/sandbox/inbound-transfers',
      { account_number: theirs.body.data.account_number, amount: 1_000, sender_name: 'ADA' },
      { key: other.api_key },
    );
    await t.call(
      'POST',
      '/sandbox/inbound-transfers',
      { account_number: theirs.body.data.account_number, amount: 2_000, sender_name: 'ADA' },
      { key: other.api_key },
    );
    const own = (await as('/v1/transactions?order=desc')).body.data;
    expect([own.total, own.items.map((item: { amount: number }) => item.amount)]).toEqual([2, [2_000, 1_000]]);
    expect(
      (await as('/v1/transactions?sender=ada&amount_min=1500')).body.data.items.map(
        (item: { amount: number }) => item.amount,
      ),
    ).toEqual([2_000]);
    expect(await ids(`/v1/transactions?wallet_id=${theirs.body.data.id}`)).toEqual([]);
  });
});

describe('GET /v1/wallets/:id/transactions', () => {
  it('takes the same filters but the wallet ones (the path names the wallet)', async () => {
    expect(await ids(`/v1/wallets/${ada.id}/transactions?since=${iso(DAY)}`)).toEqual([day2.tunde, day2.debit]);
    expect(await ids(`/v1/wallets/${ada.id}/transactions?sender=ada`)).toEqual([day1.adaObi]);
    expect(await ids(`/v1/wallets/${bayo.id}/transactions?amount_min=700000&status=SETTLED&order=desc`)).toEqual([
      day2.lovelace,
    ]);
    const r = await t.call('GET', `/v1/wallets/${ada.id}/transactions?wallet_id=${ada.id}`);
    expect([r.status, r.body.detail.fields]).toEqual([400, [{ field: 'wallet_id', message: expect.any(String) }]]);
  });
});

describe('GET /v1/suspense', () => {
  it('gives the open queue for status=PENDING,FLAGGED, oldest first by default and newest first with order=desc', async () => {
    const resolved = await credit(ada, 1_000, 'Someone', 'SANDBOX-LOW-CONFIDENCE');
    expect((await t.call('POST', `/v1/suspense/${resolved.id}/resolve`, { action: 'DISMISS' })).status).toBe(200);
    expect(await ids('/v1/suspense?status=PENDING,FLAGGED')).toEqual([day1.held, day2.flagged]);
    expect(await ids('/v1/suspense?status=FLAGGED,PENDING&order=desc')).toEqual([day2.flagged, day1.held]);
    expect(await ids('/v1/suspense?status=RESOLVED')).toEqual([resolved.id]);
    expect(await ids('/v1/suspense?status=PENDING,FLAGGED,RESOLVED')).toEqual([day1.held, day2.flagged, resolved.id]);
  });

  it('filters by time, amount, sender, provider reference and wallet', async () => {
    expect(await ids(`/v1/suspense?until=${iso(DAY - 1)}`)).toEqual([day1.held]);
    expect(await ids(`/v1/suspense?since=${iso(DAY)}&status=PENDING,FLAGGED`)).toEqual([day2.flagged]);
    expect(await ids('/v1/suspense?amount_min=50000&amount_max=50000')).toEqual([day1.held]);
    expect(await ids('/v1/suspense?sender=EMEKA%20ada')).toEqual([day2.flagged]);
    const item = (await t.call('GET', `/sandbox/suspense/${day1.held}`)).body.data;
    expect(await ids(`/v1/suspense?provider_reference=${item.provider_reference}`)).toEqual([day1.held]);
    expect(await ids(`/v1/suspense?wallet_id=${bayo.id}`)).toEqual([day2.flagged]);
    expect(await ids('/v1/suspense?customer_reference=ada-ref&status=PENDING')).toEqual([day1.held]);
    expect(await ids('/v1/suspense?customer_reference=nobody')).toEqual([]);
  });
});

describe('GET /v1/webhook-logs', () => {
  it("filters by its event's time and wallet, and by several statuses", async () => {
    const all = await list('/v1/webhook-logs?limit=100');
    const logs = all.items as unknown as {
      id: string;
      event_type: string;
      created_at: string;
      status: string;
      payload: { data: { wallet_id?: string } };
    }[];
    const adaCredits = logs
      .filter((log) => log.event_type === 'ledger.credit' && log.payload.data.wallet_id === ada.id)
      .map((log) => log.id);
    expect(adaCredits.length).toBe(2);
    expect(await ids(`/v1/webhook-logs?wallet_id=${ada.id}&event_type=ledger.credit`)).toEqual(adaCredits);
    expect(await ids(`/v1/webhook-logs?customer_reference=ada-ref&event_type=ledger.credit&until=${iso(60)}`)).toEqual(
      adaCredits.slice(0, 1),
    );
    // A suspense item's event names its wallet in its payload only.
    const bayoHeld = logs
      .filter((log) => log.event_type === 'suspense.created' && log.payload.data.wallet_id === bayo.id)
      .map((log) => log.id);
    expect(bayoHeld.length).toBe(1);
    expect(await ids(`/v1/webhook-logs?wallet_id=${bayo.id}&event_type=suspense.created`)).toEqual(bayoHeld);
    const later = logs.filter((log) => log.created_at >= iso(DAY)).map((log) => log.id);
    expect(later.length).toBeGreaterThan(0);
    expect(await ids(`/v1/webhook-logs?since=${iso(DAY)}&limit=100`)).toEqual(later);
    const statuses = [...new Set(logs.map((log) => log.status))];
    expect((await list(`/v1/webhook-logs?status=${[...statuses, 'DEAD'].join(',')}`)).total).toBe(all.total);
    expect((await list('/v1/webhook-logs?status=FAILED,DEAD')).total).toBe(
      logs.filter((log) => ['FAILED', 'DEAD'].includes(log.status)).length,
    );
  });
});

describe('a sender with %, _ and \\ in it', () => {
  it('matches those characters as themselves, ignoring case', async () => {
    const shop = await credit(ada, 1_000, 'Shop_1 100% OFF\\PROMO');
    const near = await credit(ada, 1_000, 'SHOPX1 1000 OFF/PROMO');
    expect(await ids('/v1/transactions?sender=shop')).toEqual([shop.id, near.id]);
    expect(await ids('/v1/transactions?sender=SHOP_1')).toEqual([shop.id]);
    expect(await ids('/v1/transactions?sender=100%25')).toEqual([shop.id]);
    expect(await ids('/v1/transactions?sender=off%5Cpromo')).toEqual([shop.id]);
    expect(await ids('/v1/transactions?sender=%25')).toEqual([shop.id]);
    expect(await ids('/v1/transactions?sender=_')).toEqual([shop.id]);
  });
});

describe('bad filter values', () => {
  it.each([
    ['/v1/transactions?since=yesterday', 'since'],
    ['/v1/transactions?since=2026-01-02', 'since'],
    ['/v1/transactions?until=2026-02-30T00:00:00Z', 'until'],
    ['/v1/transactions?since=2026-01-03T00:00:00Z&until=2026-01-02T00:00:00Z', 'since'],
    ['/v1/transactions?amount_min=12.5', 'amount_min'],
    ['/v1/transactions?amount_max=-5', 'amount_max'],
    ['/v1/transactions?amount_min=500&amount_max=100', 'amount_min'],
    ['/v1/transactions?status=SETTLED,LOST', 'status'],
    ['/v1/transactions?status=SETTLED,', 'status'],
    ['/v1/transactions?sender=', 'sender'],
    ['/v1/suspense?status=pending', 'status'],
    ['/v1/suspense?amount_min=1e3', 'amount_min'],
    ['/v1/suspense?until=2026-01-02T25:00:00Z', 'until'],
    ['/v1/webhook-logs?status=DELIVERED,RESOLVED', 'status'],
    ['/v1/webhook-logs?sender=ada', 'sender'],
    [`/v1/wallets/WALLET/transactions?customer_reference=ada-ref`, 'customer_reference'],
  ])('%s → 400 VALIDATION_ERROR on %s', async (path, field) => {
    const r = await t.call('GET', path.replace('WALLET', ada.id));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      detail: {
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(new RegExp(`^${field} `)),
        fields: [{ field, message: expect.any(String) }],
        // The same id as the answer's header: a support ticket quoting either finds the request.
        request_id: r.headers['request-id'],
      },
    });
    expect(r.headers['request-id']).toMatch(/^req_\d{8}$/);
  });

  it('says what is wrong in words', async () => {
    const detail = async (path: string) => (await t.call('GET', path)).body.detail.message;
    expect(await detail('/v1/transactions?since=2026-01-03T00:00:00Z&until=2026-01-02T00:00:00Z')).toBe(
      'since must not be after until (2026-01-02T00:00:00Z)',
    );
    expect(await detail('/v1/transactions?amount_min=12.5')).toBe(
      'amount_min must be a whole number of kobo, digits only',
    );
    expect(await detail('/v1/suspense?status=PENDING,LOST')).toBe(
      'status must be one or more of PENDING, RESOLVED, FLAGGED, separated by commas',
    );
    expect(await detail('/v1/transactions?until=2026-02-30T00:00:00Z')).toBe('until is not a real date and time');
    await expectCleanAudit(t);
  });
});
