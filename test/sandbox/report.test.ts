import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createWallet, expectCleanAudit, T0, type TestSandbox, useSandbox } from '../helpers/sandbox.js';

// The report's numbers are checked against what the list endpoints show, counted here in the test:
// the report's SQL must agree with the rows a person could page through.

const t = useSandbox({ listen: true });
const DAY = 86_400;
const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });
const now = async () => Date.parse((await t.call('GET', '/sandbox/clock')).body.data.now);
const credit = (account_number: string, amount: number, narration = 'Rent for May', key?: string) =>
  t.call(
    'POST',
    '/sandbox/inbound-transfers',
    {
      account_number,
      amount,
      narration,
      sender_name: 'OBI ADA',
      sender_account: '0123456789',
      sender_bank_code: '058',
    },
    { key },
  );

async function all(path: string, key?: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const r = await t.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`, undefined, { key });
    expect(r.status).toBe(200);
    items.push(...r.body.data.items);
    if (items.length >= r.body.data.total) return items;
  }
}

const inPeriod = (since: number, until: number | null) => (item: { created_at: string }) =>
  Date.parse(item.created_at) >= since && (until === null || Date.parse(item.created_at) < until);

/** Counts and kobo sums of `items` by the fields named, as the report lists them. */
function grouped(items: any[], fields: string[]) {
  const groups = new Map<string, any>();
  for (const item of items) {
    const key = fields.map((f) => item[f]).join(' ');
    const group = groups.get(key) ?? { ...Object.fromEntries(fields.map((f) => [f, item[f]])), count: 0, amount: 0 };
    group.count += 1;
    group.amount += item.amount;
    groups.set(key, group);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, g]) => g);
}

/** The report computed from the list endpoints, for the period [since, until). */
async function expectedReport(
  t: TestSandbox,
  wallets: string[],
  since: number,
  until: number | null,
  inbound: string[],
  payouts: string[],
) {
  const at = await now();
  const keep = inPeriod(since, until);
  const transactions = (await Promise.all(wallets.map((id) => all(`/v1/wallets/${id}/transactions`))))
    .flat()
    .filter(keep);
  const sum = (items: any[]) => ({ count: items.length, amount: items.reduce((s, i) => s + i.amount, 0) });
  const moneyIn = sum(transactions.filter((tx) => inbound.includes(tx.id)));
  const paid = transactions.filter((tx) => payouts.includes(tx.id));
  const out = (status: string) => sum(paid.filter((tx) => tx.status === status));
  const fees = paid.filter((tx) => tx.status !== 'FAILED').reduce((s, tx) => s + tx.fee, 0);
  const suspense = (await all('/v1/suspense')).filter(keep);
  const waiting = suspense
    .filter((s) => s.status === 'PENDING' || s.status === 'FLAGGED')
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  const logs = (await all('/v1/webhook-logs')).filter(keep);
  const failed: { url: string; log: any; attempt: any }[] = [];
  for (const log of logs) {
    for (const attempt of (await t.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`)).body.data.items) {
      if (!(attempt.http_status_code >= 200 && attempt.http_status_code < 300))
        failed.push({ url: attempt.url, log, attempt });
    }
  }
  const urls = [...new Set(failed.map((f) => f.url))];
  return {
    since: new Date(since).toISOString(),
    until: new Date(until ?? at).toISOString(),
    time_zone: 'Africa/Lagos',
    transactions: grouped(transactions, ['type', 'status']),
    money_in: moneyIn,
    money_out: { settled: out('SETTLED'), pending: out('PENDING'), failed: out('FAILED'), fees },
    net: moneyIn.amount - out('SETTLED').amount - out('PENDING').amount,
    suspense: {
      items: grouped(suspense, ['status', 'reason']),
      oldest_waiting: waiting[0]
        ? {
            id: waiting[0].id,
            status: waiting[0].status,
            reason: waiting[0].reason,
            created_at: waiting[0].created_at,
            age_seconds: Math.floor((at - Date.parse(waiting[0].created_at)) / 1000),
          }
        : null,
    },
    webhooks: {
      deliveries: grouped(
        logs.map((l) => ({ ...l, amount: 0 })),
        ['status'],
      ).map(({ status, count }) => ({ status, count })),
      failing_endpoints: urls.map((url) => {
        const mine = failed.filter((f) => f.url === url);
        const last = mine.at(-1)!.attempt;
        return {
          url,
          failed_attempts: mine.length,
          failing_deliveries: new Set(
            mine.filter((f) => ['FAILED', 'DEAD'].includes(f.log.status)).map((f) => f.log.id),
          ).size,
          last_error: {
            at: last.created_at,
            http_status_code: last.http_status_code,
            response_body: last.response_body?.slice(0, 200) ?? null,
            error: last.error,
          },
        };
      }),
    },
  };
}

describe('GET /sandbox/report', () => {
  it('agrees with the list endpoints over two days of credits, payouts, suspense and a failing endpoint, and shows nothing of another developer', async () => {
    const { api_key: other, developer_id: otherId } = (
      await t.call('POST', '/sandbox/developers', { business_name: 'Other Pay' })
    ).body.data;
    const a = await createWallet(t);
    const b = await createWallet(t);
    const closed = await createWallet(t);
    await t.call('POST', `/v1/wallets/${closed.id}/close`);
    const inbound: string[] = [];
    const payouts: string[] = [];
    const credited = async (account: string, amount: number) => {
      const r = await credit(account, amount);
      expect(r.body.data.outcome).toBe('CREDITED');
      inbound.push(r.body.data.transaction.id);
    };
    const payout = async (account: string, amount: number) => {
      const r = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: account,
        destination_bank_code: '058',
        amount,
      });
      expect(r.status).toBe(200);
      payouts.push(r.body.data.transaction_id);
    };

    // Yesterday (in Lagos): credits, a payout and suspense items, none of which today's report shows.
    await credited(a.account_number, 500_000);
    await credited(b.account_number, 120_000);
    await credit(a.account_number, 9_000, 'SANDBOX-LOW-CONFIDENCE');
    await payout(makeNuban('058', '000000017'), 50_000);
    await advance(DAY);

    // Today: credits, payouts settled, failed and pending, suspense of three reasons, one dismissed.
    await credited(a.account_number, 2_000_000);
    await credited(b.account_number, 700_000);
    await credited(b.account_number, 350_050);
    await credit(a.account_number, 7_000, 'SANDBOX-LOW-CONFIDENCE');
    await credit(a.account_number, 45_000, 'SANDBOX-RISK school fees');
    await credit(closed.account_number, 30_000);
    const dismissed = (await credit(b.account_number, 1_500, 'SANDBOX-LOW-CONFIDENCE')).body.data.suspense_item;
    expect(
      (await t.call('POST', `/v1/suspense/${dismissed.id}/resolve`, { action: 'DISMISS', note: 'test' })).status,
    ).toBe(200);
    await payout(makeNuban('058', '000000025'), 300_000);
    await payout('1111111111', 200_000);
    await payout('2222222222', 1_000_000);
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 10_000,
    });
    // The built-in receiver fails the next deliveries: some stay FAILED with the 500 as their last error.
    expect((await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 3 })).status).toBe(200);
    await credited(a.account_number, 80_000);
    await advance(3); // payouts settle and fail; first retries fall due
    await credited(b.account_number, 64_000);
    await advance(60);

    // Another developer's books, today too: a credit, suspense and a failing delivery of its own.
    const o = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'o1', first_name: 'Uche', last_name: 'Eze', email: 'u@example.com' },
        { key: other },
      )
    ).body.data;
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 503, count: 5 }, { key: other });
    await credit(o.account_number, 990_000, 'Rent', other);
    await credit(o.account_number, 33_000, 'SANDBOX-RISK', other);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 }, { key: other });

    const at = await now();
    const today = Date.parse('2026-11-21T23:00:00.000Z'); // 00:00 in Lagos on the day T0 + 1 day falls in
    expect(at - T0).toBeGreaterThan(DAY * 1000);
    const report = await t.call('GET', '/sandbox/report');
    expect(report.status).toBe(200);
    const expected = await expectedReport(t, [a.id, b.id, closed.id], today, null, inbound, payouts);
    expect(report.body.data).toEqual(expected);
    // The data really holds what the scenario made, so the comparison above is not of empty sections.
    expect(report.body.data.money_in.count).toBe(5);
    expect(report.body.data.money_out.failed.count).toBe(1);
    expect(report.body.data.suspense.items.map((i: any) => `${i.status} ${i.reason}`)).toEqual([
      'FLAGGED AI_RISK_FLAG',
      'PENDING AI_LOW_CONFIDENCE',
      'PENDING WALLET_CLOSED',
      'RESOLVED AI_LOW_CONFIDENCE',
    ]);
    expect(report.body.data.webhooks.failing_endpoints).toEqual([
      expect.objectContaining({
        url: `${t.baseUrl}/sandbox/receiver/${t.developerId}`,
        last_error: expect.objectContaining({ http_status_code: 500 }),
      }),
    ]);

    // Both days, given as Lagos dates: yesterday's rows join in.
    const both = await t.call('GET', '/sandbox/report?since=2026-11-21');
    expect(both.body.data).toEqual(
      await expectedReport(t, [a.id, b.id, closed.id], Date.parse('2026-11-20T23:00:00.000Z'), null, inbound, payouts),
    );
    expect(both.body.data.money_in.count).toBe(7);

    // The other developer's report holds only its own.
    const theirs = (await t.call('GET', '/sandbox/report', undefined, { key: other })).body.data;
    expect(theirs.money_in).toEqual({ count: 1, amount: 990_000 });
    expect(theirs.suspense.items).toEqual([{ status: 'FLAGGED', reason: 'AI_RISK_FLAG', count: 1, amount: 33_000 }]);
    expect(theirs.webhooks.failing_endpoints).toEqual([
      expect.objectContaining({
        url: `${t.baseUrl}/sandbox/receiver/${otherId}`,
        last_error: expect.objectContaining({ http_status_code: 503 }),
      }),
    ]);
    expect(JSON.stringify(theirs)).not.toContain(t.developerId);
    await expectCleanAudit(t);
  });

  it('counts an item made at `since` and leaves out one a millisecond before it and one at `until`', async () => {
    const w = await createWallet(t);
    const made: string[] = [];
    for (const amount of [100, 200, 400]) {
      made.push((await credit(w.account_number, amount)).body.data.transaction.created_at);
      await advance(0.001);
    }
    const [, since, until] = made as [string, string, string];
    const r = await t.call('GET', `/sandbox/report?since=${since}&until=${until}`);
    expect(r.body.data).toMatchObject({
      since,
      until,
      money_in: { count: 1, amount: 200 },
      transactions: [{ type: 'CREDIT', status: 'SETTLED', count: 1, amount: 200 }],
    });
    expect(r.body.data.webhooks.deliveries).toEqual([{ status: 'DELIVERED', count: 1 }]);
    // Without `until`, everything up to now, the item made at this instant included.
    const open = await t.call('GET', `/sandbox/report?since=${since}`);
    expect(open.body.data).toMatchObject({
      until: new Date(await now()).toISOString(),
      money_in: { count: 2, amount: 600 },
    });
    await expectCleanAudit(t);
  });

  it('starts the default day at 00:00 in Lagos (23:00 UTC the day before)', async () => {
    // T0 is 10:30 in Lagos on 21 November.
    const r = await t.call('GET', '/sandbox/report');
    expect(r.body.data).toMatchObject({
      since: '2026-11-20T23:00:00.000Z',
      until: new Date(T0).toISOString(),
      time_zone: 'Africa/Lagos',
      money_in: { count: 0, amount: 0 },
      net: 0,
    });
    // A time without a zone is Lagos time.
    expect((await t.call('GET', '/sandbox/report?since=2026-11-21T08:00')).body.data.since).toBe(
      '2026-11-21T07:00:00.000Z',
    );
  });

  it.each([
    ['since=yesterday', 'since', 'must be an ISO 8601 date'],
    ['since=2026-02-30', 'since', 'must be an ISO 8601 date'],
    ['until=2026-11-21T25:00Z', 'until', 'must be an ISO 8601 date'],
    ['since=2026-11-21&until=2026-11-21', 'until', 'must be later than since'],
    ['since=2026-11-21T10:00Z&until=2026-11-21T09:00Z', 'until', 'must be later than since'],
  ])('refuses %s with 400 VALIDATION_ERROR on %s', async (query, field, message) => {
    const r = await t.call('GET', `/sandbox/report?${query}`);
    expect([r.status, r.body.detail.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(r.body.detail.fields).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it('refuses an unknown parameter', async () => {
    const r = await t.call('GET', '/sandbox/report?wallet=1');
    expect([r.status, r.body.detail.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('GET /sandbox/report past 2^53 kobo', () => {
  it('gives a total past Number.MAX_SAFE_INTEGER as an exact string of digits, and one within it as a number', async () => {
    const max = 10_000_000_000_000;
    const a = await createWallet(t);
    const b = await createWallet(t);
    await credit(a.account_number, max);
    // 900 transfers of ₦100bn between two wallets: with the first credit, 901 credits sum past 2^53 while no balance does.
    for (let i = 0; i < 900; i++) {
      const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
      expect(
        (
          await t.call('POST', `/v1/wallets/${from.id}/transfer`, {
            destination_account_number: to.account_number,
            amount: max,
          })
        ).status,
      ).toBe(200);
    }
    const r = (await t.call('GET', '/sandbox/report')).body.data;
    expect(r.transactions).toEqual([
      { type: 'CREDIT', status: 'SETTLED', count: 901, amount: (BigInt(max) * 901n).toString() },
      { type: 'DEBIT', status: 'SETTLED', count: 900, amount: max * 900 },
    ]);
    expect(max * 901).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(r.money_in).toEqual({ count: 1, amount: max });
    await expectCleanAudit(t);
  });
});
