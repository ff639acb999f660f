import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from '../../src/api/schemas/common.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import {
  createTestSandbox,
  createWallet,
  expectCleanAudit,
  type TestSandbox,
  logsWithPayload,
  TEST_BACKEND,
  getWallet,
} from '../helpers/sandbox.js';

/**
 * Money at its edges: refunds to the caller's own virtual accounts, and the
 * 2^53 guard, which bounds each wallet and never the developer's system accounts.
 */
const MAX = Number.MAX_SAFE_INTEGER;

let t: TestSandbox;
let other: { key: string; developerId: string };
/** A wallet credited to exactly 2^53 − 1 kobo, and the developer's provider_settlement then past -2^53. */
let full: { id: string; account_number: string };

const inbound = (account: string, amount: number, key?: string, extra: Record<string, unknown> = {}) =>
  t.call(
    'POST',
    '/sandbox/inbound-transfers',
    { account_number: account, amount, narration: 'salary', ...extra },
    key ? { key } : {},
  );
const history = async (id: string, key?: string) =>
  (await t.call('GET', `/v1/wallets/${id}/transactions`, undefined, key ? { key } : {})).body.data;
/** A system account's balance as SQLite holds it, as text: exact past 2^53, where a JavaScript number is not. */
const systemBalance = async (developerId: string, kind: string) =>
  (
    await sql<{
      b: string;
    }>`select cast(balance as text) as b from accounts where developer_id = ${developerId} and kind = ${kind}`.execute(
      t.sandbox.db,
    )
  ).rows[0]!.b;

/** Credits `total` kobo in MAX_AMOUNT pieces (the most one request may carry), 50 requests at a time. */
async function fill(account: string, total: number, key?: string) {
  const pieces: number[] = [];
  for (let left = total; left > 0; left -= MAX_AMOUNT) pieces.push(Math.min(left, MAX_AMOUNT));
  for (let i = 0; i < pieces.length; i += 50) {
    const answers = await Promise.all(pieces.slice(i, i + 50).map((amount) => inbound(account, amount, key)));
    for (const a of answers) expect(a.body.data?.outcome, JSON.stringify(a.body)).toBe('CREDITED');
  }
}

beforeAll(async () => {
  t = await createTestSandbox();
  const created = (await t.call('POST', '/sandbox/developers', { business_name: 'Other Pay' })).body.data;
  other = { key: created.api_key, developerId: created.developer_id };
  full = await createWallet(t);
  await fill(full.account_number, MAX);
}, 120_000);
afterAll(() => t.close());

describe('the 2^53 guard is per wallet (decisions: Money and balances)', () => {
  it('lands a credit into a wallet at 0 while provider_settlement is past -2^53', async () => {
    expect((await getWallet(t, full.id)).balance).toBe(MAX);
    expect(await systemBalance(t.developerId, 'PROVIDER_SETTLEMENT')).toBe(`-${MAX}`);
    const fresh = await createWallet(t);
    const r = await inbound(fresh.account_number, MAX_AMOUNT);
    expect([r.status, r.body.data.outcome, r.body.data.transaction.balance_after]).toEqual([
      200,
      'CREDITED',
      MAX_AMOUNT,
    ]);
    expect((await getWallet(t, fresh.id)).balance).toBe(MAX_AMOUNT);
    // Exact: 2^53 − 1 + 10^13, which a JavaScript number (or a REAL in SQLite) would round.
    expect(await systemBalance(t.developerId, 'PROVIDER_SETTLEMENT')).toBe('-9017199254740991');
    await expectCleanAudit(t);
  });

  it('answers 400 VALIDATION_ERROR on amount to a credit that would take a wallet past 2^53 − 1, and writes nothing', async () => {
    const before = await history(full.id);
    const credit = await inbound(full.account_number, 1);
    expect(credit.status).toBe(400);
    expect(credit.body).toEqual({
      success: false,
      detail: {
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('9007199254740991'),
        fields: [{ field: 'amount', message: expect.stringContaining('9007199254740991') }],
        request_id: credit.headers['request-id'],
      },
    });
    const source = await createWallet(t, 5_000);
    const transfer = await t.call('POST', `/v1/wallets/${source.id}/transfer`, {
      destination_account_number: full.account_number,
      amount: 1,
    });
    expect([transfer.status, transfer.body.detail.code, transfer.body.detail.fields]).toEqual([
      400,
      'VALIDATION_ERROR',
      [{ field: 'amount', message: expect.any(String) }],
    ]);
    expect((await getWallet(t, full.id)).balance).toBe(MAX);
    expect((await getWallet(t, source.id)).balance).toBe(5_000);
    expect((await history(full.id)).total).toBe(before.total);
    await expectCleanAudit(t);
  });

  it('refuses an amount of 2^53 or more as too large, as the command line says', async () => {
    const too = `must be at most ${MAX_AMOUNT} kobo`;
    const a = await createWallet(t);
    for (const amount of ['9007199254740992', '9007199254740993', '1e20']) {
      const body = `{"account_number":"${a.account_number}","amount":${amount}}`;
      const r = await t.call('POST', '/sandbox/inbound-transfers', body);
      expect([amount, r.status, r.body.detail.fields]).toEqual([amount, 400, [{ field: 'amount', message: too }]]);
    }
    const agent = await t.call(
      'POST',
      `/v1/wallets/${a.id}/agents`,
      `{"name":"a","trigger":"BALANCE_ABOVE","threshold":9007199254740993,"action":"LOCK_WALLET"}`,
    );
    expect([agent.status, agent.body.detail.fields]).toEqual([400, [{ field: 'threshold', message: too }]]);
    // A fraction is still a fraction.
    expect(
      (await t.call('POST', '/sandbox/inbound-transfers', { account_number: a.account_number, amount: 1.5 })).body
        .detail.fields,
    ).toEqual([
      { field: 'amount', message: 'must be an integer number of kobo (a JSON number, not a string or a fraction)' },
    ]);
    expect((await getWallet(t, a.id)).balance).toBe(0);
  });

  it('keeps room in a wallet for the reversal of its pending payouts', async () => {
    const payout = await t.call('POST', `/v1/wallets/${full.id}/transfer`, {
      destination_account_number: '2222222222',
      destination_bank_code: '058',
      amount: MAX_AMOUNT,
    });
    expect([payout.body.data.status, payout.body.data.new_balance]).toEqual(['PENDING', MAX - MAX_AMOUNT - 5_000]);
    // Its balance is 10^13 + 5,000 below the ceiling, but that money may come back.
    const credit = await inbound(full.account_number, 1);
    expect([credit.status, credit.body.detail.fields[0].field]).toEqual([400, 'amount']);
    const failed = await t.call('POST', `/sandbox/payouts/${payout.body.data.transaction_id}/fail`);
    expect([failed.status, failed.body.data.status]).toEqual([200, 'FAILED']);
    expect((await getWallet(t, full.id)).balance).toBe(MAX);
    // A settled payout gives its room back for good: 1,000 and its fee of 1,000.
    const settled = await t.call('POST', `/v1/wallets/${full.id}/transfer`, {
      destination_account_number: '2222222222',
      destination_bank_code: '058',
      amount: 1_000,
    });
    expect((await inbound(full.account_number, 2_000)).status).toBe(400);
    await t.call('POST', `/sandbox/payouts/${settled.body.data.transaction_id}/settle`);
    expect((await inbound(full.account_number, 2_000)).status).toBe(200);
    expect((await getWallet(t, full.id)).balance).toBe(MAX);
    await expectCleanAudit(t);
  });

  it("fails and reverses a payout that another developer's wallet cannot hold, and settles the next one", async () => {
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'whale', first_name: 'Wale', last_name: 'Ade', email: 'w@a.ng' },
        { key: other.key },
      )
    ).body.data;
    await fill(theirs.account_number, MAX - 1_000, other.key);
    const payer = await createWallet(t, 20_000);
    const refused = await t.call('POST', `/v1/wallets/${payer.id}/transfer`, {
      destination_account_number: theirs.account_number,
      destination_bank_code: '035',
      amount: 5_000,
      narration: 'salary',
    });
    const next = await t.call('POST', `/v1/wallets/${payer.id}/transfer`, {
      destination_account_number: makeNuban('058', '123123123'),
      destination_bank_code: '058',
      amount: 1_000,
    });
    expect([refused.body.data.status, next.body.data.status]).toEqual(['PENDING', 'PENDING']);
    expect((await getWallet(t, payer.id)).balance).toBe(20_000 - 5_000 - 1_000 - 1_000 - 1_000);

    const advanced = await t.call('POST', '/sandbox/clock/advance', { seconds: 2 });
    expect(advanced.status).toBe(200);
    expect((await t.call('GET', `/v1/transactions/${refused.body.data.transaction_id}`)).body.data.status).toBe(
      'FAILED',
    );
    expect((await t.call('GET', `/v1/transactions/${next.body.data.transaction_id}`)).body.data.status).toBe('SETTLED');
    expect((await getWallet(t, payer.id)).balance).toBe(20_000 - 1_000 - 1_000);
    expect((await getWallet(t, theirs.id, other.key)).balance).toBe(MAX - 1_000);
    const failed = await logsWithPayload(t, 'transfer.failed');
    expect(failed.map((f) => JSON.parse(f.payload).data)).toContainEqual(
      // As a bank says it: that it cannot receive it, and nothing of what the other developer's wallet would hold.
      expect.objectContaining({
        transaction_id: refused.body.data.transaction_id,
        reason: `the beneficiary bank rejected the credit: account ${theirs.account_number} at Wema Bank (035) cannot receive it`,
      }),
    );
    await expectCleanAudit(t);
  });

  it("refuses a suspense REFUND another developer's wallet cannot hold, telling nothing of that wallet", async () => {
    // Refused as its bank would refuse it, and the item is kept.
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'whale-2', first_name: 'Wale', last_name: 'Ade', email: 'w2@a.ng' },
        { key: other.key },
      )
    ).body.data;
    await fill(theirs.account_number, MAX - 1_000, other.key);
    const mine = await createWallet(t);
    const held = await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: mine.account_number,
      amount: 5_000,
      narration: 'asdfgh',
      sender_account: theirs.account_number,
      sender_bank_code: '035',
    });
    expect(held.body.data.outcome).toBe('SUSPENDED');
    const item = held.body.data.suspense_item.id;
    const refund = await t.call('POST', `/v1/suspense/${item}/resolve`, { action: 'REFUND' });
    expect([refund.status, refund.body.detail.code]).toEqual([422, 'ACCOUNT_NOT_FOUND']);
    expect(refund.body.detail.message).toBe(
      `the beneficiary bank rejected the credit: account ${theirs.account_number} at Wema Bank (035) cannot receive it`,
    );
    expect(JSON.stringify(refund.body)).not.toContain('9007199254740991');
    expect((await t.call('GET', `/sandbox/suspense/${item}`)).body.data.status).toBe('PENDING');
    expect((await getWallet(t, theirs.id, other.key)).balance).toBe(MAX - 1_000);
    // Dismissed instead, it leaves as any other item does.
    expect((await t.call('POST', `/v1/suspense/${item}/resolve`, { action: 'DISMISS' })).status).toBe(200);
    await expectCleanAudit(t);
  });

  it('records a sweep into a full wallet as agent.failed and keeps the credit that triggered it', async () => {
    const sweeper = await createWallet(t);
    const agent = await t.call('POST', `/v1/wallets/${sweeper.id}/agents`, {
      name: 'to full',
      trigger: 'ON_CREDIT',
      action: 'SWEEP',
      destination_wallet_id: full.id,
    });
    expect(agent.status).toBe(201);
    const credit = await inbound(sweeper.account_number, 5_000);
    expect([credit.status, credit.body.data.outcome]).toEqual([200, 'CREDITED']);
    expect((await getWallet(t, sweeper.id)).balance).toBe(5_000);
    const runs = (await t.call('GET', `/sandbox/agents/${agent.body.data.id}/runs`)).body.data.items;
    expect(runs).toEqual([
      expect.objectContaining({
        outcome: 'FAILED',
        effect: 'moved nothing',
        error: expect.stringMatching(
          /^VALIDATION_ERROR: amount: the wallet would hold more than 9007199254740991 kobo/,
        ),
      }),
    ]);
    const events = await logsWithPayload(t, 'agent.failed');
    expect(events.map((e) => JSON.parse(e.payload).data.agent_id)).toContain(agent.body.data.id);
    expect((await getWallet(t, full.id)).balance).toBe(MAX);
    await expectCleanAudit(t);
  });
});

describe("a suspense REFUND to one of the caller's own virtual accounts (decisions: Suspense)", () => {
  it('arrives there as an inbound transfer', async () => {
    const home = await createWallet(t);
    const closed = await createWallet(t);
    await t.call('POST', `/v1/wallets/${closed.id}/close`);
    const held = await inbound(closed.account_number, 4_000, undefined, {
      sender_name: 'ADA OBI',
      sender_account: home.account_number,
      sender_bank_code: '035',
    });
    const item = held.body.data.suspense_item;
    expect(item.reason).toBe('WALLET_CLOSED');

    const refund = await t.call('POST', `/v1/suspense/${item.id}/resolve`, { action: 'REFUND' });
    expect(refund.status).toBe(200);
    expect(refund.body.data).toMatchObject({
      action: 'REFUND',
      message: `refunded 4000 kobo to ${home.account_name} (${home.account_number} at 035)`,
    });
    expect((await getWallet(t, home.id)).balance).toBe(4_000);
    const [credit] = (await history(home.id)).items;
    expect(credit).toMatchObject({
      type: 'CREDIT',
      amount: 4_000,
      status: 'SETTLED',
      sender_name: 'NIP REFUND',
      sender_account: closed.account_number,
      provider_reference: refund.body.data.provider_reference,
    });
    const announced = await logsWithPayload(t, 'ledger.credit');
    expect(announced.map((e) => JSON.parse(e.payload).data.transaction_id)).toContain(credit.id);
    expect((await t.call('GET', `/sandbox/suspense/${item.id}`)).body.data.status).toBe('RESOLVED');
    await expectCleanAudit(t);
  });
});

describe("a developer's clock stops at 9999-01-01T00:00:00.000Z (decisions: Tenancy, clocks and reset)", () => {
  it('refuses an advance past it with 400 VALIDATION_ERROR on seconds, moves nothing, and every time stays ISO 8601', async () => {
    const { api_key: key } = (await t.call('POST', '/sandbox/developers', { business_name: 'Far Future' })).body.data;
    const clock = async () => (await t.call('GET', '/sandbox/clock', undefined, { key })).body.data;
    const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds }, { key });
    const tenYears = 10 * 365 * 24 * 3600;
    const limit = Date.parse('9999-01-01T00:00:00.000Z');
    // As far as ten-year steps go: a hundred of them at a time, each checked against the others of its batch.
    const steps = Math.floor((limit - Date.parse((await clock()).now)) / 1000 / tenYears);
    for (let done = 0; done < steps; done += 100) {
      const answers = await Promise.all(Array.from({ length: Math.min(100, steps - done) }, () => advance(tenYears)));
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    }
    const before = await clock();
    const refused = await advance(tenYears);
    expect([refused.status, refused.body.detail.code, refused.body.detail.fields]).toEqual([
      400,
      'VALIDATION_ERROR',
      [
        {
          field: 'seconds',
          message: 'would move the clock past 9999-01-01T00:00:00.000Z, the latest time a sandbox clock reaches',
        },
      ],
    ]);
    expect(await clock()).toEqual(before);
    // Up to the instant itself is allowed.
    const rest = (limit - Date.parse(before.now)) / 1000;
    expect((await advance(rest)).body.data.now).toBe('9999-01-01T00:00:00.000Z');
    expect((await advance(0.001)).status).toBe(400);
    // Money still moves there, and every time it shows has a four-digit year.
    const far = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'far', first_name: 'Far', last_name: 'Future', email: 'far@example.com' },
        { key },
      )
    ).body.data;
    expect((await inbound(far.account_number, 5_000, key)).body.data.outcome).toBe('CREDITED');
    const shown = JSON.stringify([
      far,
      await history(far.id, key),
      (await t.call('GET', '/v1/webhook-logs', undefined, { key })).body.data,
    ]);
    expect(shown.match(/"[+-]?\d{5,}-\d\d-\d\dT/g)).toBeNull();
    expect(shown).toContain('"9999-01-01T00:00:00.000Z"');
    expect((await t.call('GET', '/sandbox/audit', undefined, { key })).body.data.ok).toBe(true);
  });

  it('moves in whole milliseconds: a step under one is refused, and offsets stay whole', async () => {
    const { api_key: key } = (await t.call('POST', '/sandbox/developers', { business_name: 'Tiny Steps' })).body.data;
    const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds }, { key });
    const tiny = await advance(0.0001);
    expect([tiny.status, tiny.body.detail.fields]).toEqual([
      400,
      [
        {
          field: 'seconds',
          message: 'must be at least 0.001 (one millisecond): the clock only moves forward, in whole milliseconds',
        },
      ],
    ]);
    expect((await advance(1.5)).body.data.offset_seconds).toBe(1.5);
    expect((await advance(0.0014)).body.data.offset_seconds).toBe(1.501);
    // SQLite keeps whatever it is given in an integer column; PostgreSQL's bigint holds only integers.
    const type = TEST_BACKEND === 'sqlite' ? sql`typeof(clock_offset_ms)` : sql`'integer'`;
    const stored = await sql<{
      offset: number;
      type: string;
    }>`select clock_offset_ms as offset, ${type} as type from developers where business_name = 'Tiny Steps'`.execute(
      t.sandbox.db,
    );
    expect(stored.rows).toEqual([{ offset: 1501, type: 'integer' }]);
  });
});
