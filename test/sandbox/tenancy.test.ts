import { beforeEach, describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createWallet, expectCleanAudit, useSandbox, walletBody } from '../helpers/sandbox.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

/**
 * Every /sandbox control acts for the calling developer only (decisions: Tenancy, clocks and reset).
 * Developer A is the sandbox's own developer (t.call with its key); developer B is a second account
 * in the same sandbox.
 */
// Eight delivery slots per developer, as a sandbox on a real-time clock has (fairness, below).
const t = useSandbox({ listen: true, deliveryConcurrency: 8 });
let bKey: string;
let bId: string;
beforeEach(async () => {
  const b = (await t.call('POST', '/sandbox/developers', { business_name: 'Bee Pay' })).body.data;
  bKey = b.api_key;
  bId = b.developer_id;
});

const asB = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  t.call(method, url, body, { key: bKey, ...(headers ? { headers } : {}) });

/** Everything developer A can read about its own data, for before/after comparisons. */
async function viewOfA(walletIds: string[]) {
  const views: Record<string, unknown> = {};
  for (const url of [
    '/sandbox/wallets?limit=100',
    '/v1/suspense?limit=100',
    '/v1/agents?limit=100',
    '/v1/webhook-logs?limit=100',
    '/sandbox/receiver/events?limit=100',
    '/sandbox/clock',
    '/sandbox/webhook-endpoint',
    '/sandbox/receiver/behaviour',
    '/sandbox/keys',
  ]) {
    views[url] = (await t.call('GET', url)).body;
  }
  for (const id of walletIds) views[id] = (await t.call('GET', `/v1/wallets/${id}/transactions?limit=100`)).body;
  views.audit = (await t.call('GET', '/sandbox/audit')).body;
  return views;
}

async function populateA() {
  const a1 = await createWallet(t, 50_000);
  const a2 = await createWallet(t);
  await t.call('POST', `/v1/wallets/${a1.id}/transfer`, {
    destination_account_number: a2.account_number,
    amount: 1_000,
  });
  await t.call('POST', '/sandbox/inbound-transfers', {
    account_number: a1.account_number,
    amount: 700,
    narration: 'asdfgh',
  });
  await t.call('POST', `/v1/wallets/${a1.id}/agents`, {
    name: 'notify',
    trigger: 'ON_CREDIT',
    action: 'WEBHOOK_NOTIFY',
  });
  await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
  return [a1.id, a2.id];
}

describe('reset acts for the caller only', () => {
  it("B's reset removes B's data and leaves every row of A's as it was", async () => {
    const walletsOfA = await populateA();
    const bWallet = (await asB('POST', '/v1/wallets', walletBody())).body.data;
    await asB('POST', '/sandbox/inbound-transfers', { account_number: bWallet.account_number, amount: 9_000 });
    const before = await viewOfA(walletsOfA);

    const reset = await asB('POST', '/sandbox/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.data.removed).toMatchObject({ wallets: 1, transactions: 1, events: 1, webhook_logs: 1 });

    expect(await viewOfA(walletsOfA)).toEqual(before);
    expect((await asB('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    expect((await asB('GET', '/sandbox/audit')).body.data).toMatchObject({
      ok: true,
      checked: { wallets: 0, transactions: 0 },
    });
    await expectCleanAudit(t);
  });

  it("A's reset removes A's wallets, money, suspense items, agents, events and deliveries; A's key and clock stay", async () => {
    await populateA();
    const clock = (await t.call('GET', '/sandbox/clock')).body.data;
    const bWallet = (await asB('POST', '/v1/wallets', walletBody())).body.data;
    await asB('POST', '/sandbox/inbound-transfers', { account_number: bWallet.account_number, amount: 9_000 });
    const removed = (await t.call('POST', '/sandbox/reset')).body.data.removed;
    expect(removed).toMatchObject({ wallets: 2, suspense_items: 1, agents: 1 });
    for (const url of ['/sandbox/wallets', '/v1/suspense', '/v1/agents', '/v1/webhook-logs'])
      expect((await t.call('GET', url)).body.data.total).toBe(0);
    expect((await t.call('GET', '/sandbox/clock')).body.data).toEqual(clock);
    expect((await asB('GET', `/v1/wallets/${bWallet.id}`)).body.data.balance).toBe(9_000);
    expect((await asB('GET', '/v1/webhook-logs')).body.data.total).toBe(1);
  });
});

describe('each developer has its own clock', () => {
  it("B's clock advance does not move A's clock", async () => {
    await asB('POST', '/sandbox/clock/advance', { seconds: 3600 });
    expect((await t.call('GET', '/sandbox/clock')).body.data).toEqual({
      now: '2026-11-21T09:30:00.000Z',
      offset_seconds: 0,
    });
    expect((await asB('GET', '/sandbox/clock')).body.data).toEqual({
      now: '2026-11-21T10:30:00.000Z',
      offset_seconds: 3600,
    });
  });

  it("A's retry with its Idempotency-Key replays after B advanced its own clock 25 h, and runs no second transfer", async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    const send = () =>
      t.call(
        'POST',
        `/v1/wallets/${a.id}/transfer`,
        { destination_account_number: b.account_number, amount: 4_000 },
        { headers: { 'idempotency-key': 'rent-may' } },
      );
    const first = await send();
    await asB('POST', '/sandbox/clock/advance', { seconds: 25 * 3600 });
    const retry = await send();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await t.call('GET', `/v1/wallets/${a.id}`)).body.data.balance).toBe(6_000);
  });

  it("a payout settles on its owner's clock, not on another developer's", async () => {
    const a = await createWallet(t, 100_000);
    const payout = (
      await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: makeNuban('058', '123456789'),
        destination_bank_code: '058',
        amount: 10_000,
      })
    ).body.data;
    expect(payout.status).toBe('PENDING');
    await asB('POST', '/sandbox/clock/advance', { seconds: 3600 });
    expect((await t.call('GET', `/v1/transactions/${payout.transaction_id}`)).body.data.status).toBe('PENDING');
    await t.call('POST', '/sandbox/clock/advance', { seconds: 2 });
    expect((await t.call('GET', `/v1/transactions/${payout.transaction_id}`)).body.data.status).toBe('SETTLED');
  });

  it("a failed delivery is retried on its owner's clock only", async () => {
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 1 });
    await createWallet(t, 1_000);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
    const failed = (await t.call('GET', '/v1/webhook-logs')).body.data.items[0];
    expect(failed).toMatchObject({ status: 'FAILED', attempt_count: 1 });
    await asB('POST', '/sandbox/clock/advance', { seconds: 600 });
    expect((await t.call('GET', `/sandbox/webhook-logs/${failed.id}`)).body.data).toMatchObject({
      status: 'FAILED',
      attempt_count: 1,
    });
    await t.call('POST', '/sandbox/clock/advance', { seconds: 5 });
    expect((await t.call('GET', `/sandbox/webhook-logs/${failed.id}`)).body.data).toMatchObject({
      status: 'DELIVERED',
      attempt_count: 2,
    });
  });

  it("money sent to another developer's virtual account arrives stamped on the receiver's clock", async () => {
    await t.call('POST', '/sandbox/clock/advance', { seconds: 7200 });
    const a = await createWallet(t, 100_000);
    const bWallet = (await asB('POST', '/v1/wallets', walletBody())).body.data;
    const sent = (
      await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: bWallet.account_number,
        destination_bank_code: '035',
        amount: 25_000,
      })
    ).body.data;
    expect(sent.status).toBe('PENDING');
    await t.call('POST', '/sandbox/clock/advance', { seconds: 2 });
    const arrived = (await asB('GET', `/v1/wallets/${bWallet.id}/transactions`)).body.data.items;
    expect(arrived).toEqual([
      expect.objectContaining({ type: 'CREDIT', amount: 25_000, created_at: '2026-11-21T09:30:00.000Z' }),
    ]);
    await expectCleanAudit(t);
  });

  it("B's simulated credit under the NIP session id of A's pending payout leaves that payout alone: it settles and reaches B", async () => {
    const a = await createWallet(t, 100_000);
    const bWallet = (await asB('POST', '/v1/wallets', walletBody())).body.data;
    const sent = (
      await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: bWallet.account_number,
        destination_bank_code: '035',
        amount: 25_000,
      })
    ).body.data;
    // B claims that reference first, by hand (a reference copied from a seeded run, say).
    const claimed = await asB('POST', '/sandbox/inbound-transfers', {
      account_number: bWallet.account_number,
      amount: 700,
      narration: 'salary',
      provider_reference: sent.provider_reference,
    });
    expect(claimed.body.data.outcome).toBe('CREDITED');
    await t.call('POST', '/sandbox/clock/advance', { seconds: 2 });
    expect((await t.call('GET', `/v1/transactions/${sent.transaction_id}`)).body.data.status).toBe('SETTLED');
    expect((await t.call('GET', `/v1/wallets/${a.id}`)).body.data.balance).toBe(100_000 - 25_000 - 1_000);
    expect((await asB('GET', `/v1/wallets/${bWallet.id}`)).body.data.balance).toBe(700 + 25_000);
    const arrived = (await asB('GET', `/v1/wallets/${bWallet.id}/transactions`)).body.data.items;
    expect(
      arrived.map((tx: { amount: number; provider_reference: string }) => [tx.amount, tx.provider_reference]),
    ).toEqual([
      [700, sent.provider_reference],
      [25_000, sent.provider_reference],
    ]);
    // B's own notification still replays as it was.
    const again = await asB('POST', '/sandbox/inbound-transfers', {
      account_number: bWallet.account_number,
      amount: 700,
      narration: 'salary',
      provider_reference: sent.provider_reference,
    });
    expect([again.status, again.body.data.transaction.amount]).toEqual([200, 700]);
    expect((await asB('GET', `/v1/wallets/${bWallet.id}`)).body.data.balance).toBe(25_700);
    await expectCleanAudit(t);
    expect((await asB('GET', '/sandbox/audit')).body.data.ok).toBe(true);
  });
});

describe('the audit reports the caller’s books only', () => {
  it("counts only the caller's rows, and reports another developer's broken books as a count without ids", async () => {
    await populateA();
    const bWallet = (await asB('POST', '/v1/wallets', walletBody())).body.data;
    await asB('POST', '/sandbox/inbound-transfers', { account_number: bWallet.account_number, amount: 9_000 });
    const ofB = (await asB('GET', '/sandbox/audit')).body.data;
    expect(ofB).toMatchObject({ ok: true, checked: { wallets: 1, transactions: 1 } });

    // Break A's books behind the API's back: B's audit says something is wrong, but not what or whose.
    await t.sandbox.db
      .updateTable('accounts')
      .set({ balance: 1 })
      .where('developer_id', '=', t.developerId)
      .where('kind', '=', 'DISMISSED')
      .execute();
    const after = (await asB('GET', '/sandbox/audit')).body.data;
    expect(after.ok).toBe(false);
    expect(after.problems).toEqual([
      { check: 'sandbox_balanced', message: "1 other developer's books do not sum to zero in this sandbox" },
    ]);
    expect(JSON.stringify(after)).not.toContain(t.developerId);
    const ofA = (await t.call('GET', '/sandbox/audit')).body.data;
    expect(ofA.problems.map((p: { check: string }) => p.check)).toEqual(
      expect.arrayContaining(['balance_equals_entries', 'developer_balanced']),
    );
    await t.sandbox.db
      .updateTable('accounts')
      .set({ balance: 0 })
      .where('developer_id', '=', t.developerId)
      .where('kind', '=', 'DISMISSED')
      .execute();
  });
});

describe('webhook delivery is fair between developers', () => {
  it("one developer's endpoint that never answers holds up no other developer's delivery", async () => {
    const hanging = await startWebhookApp(
      () => '',
      () => 'hang',
    );
    try {
      await asB('PUT', '/sandbox/webhook-endpoint', { url: hanging.url });
      const bWallet = (await asB('POST', '/v1/wallets', walletBody())).body.data;
      for (let i = 0; i < 20; i++)
        await asB('POST', '/sandbox/inbound-transfers', { account_number: bWallet.account_number, amount: 100 + i });
      // B's deliveries start and hang: all of B's slots are taken.
      const bDue = t.app.scheduler.runDue(bId);
      await t.call('GET', '/sandbox/health', undefined, { key: null });
      while (hanging.received.length < 8) await new Promise((resolve) => setImmediate(resolve));

      await createWallet(t, 5_000);
      await t.app.scheduler.runDue(t.developerId);
      expect((await t.call('GET', '/v1/webhook-logs')).body.data.items).toEqual([
        expect.objectContaining({ event_type: 'ledger.credit', status: 'DELIVERED' }),
      ]);
      expect(hanging.received).toHaveLength(8);
      await hanging.close();
      await bDue;
    } finally {
      await hanging.close();
    }
  });
});

it('concurrent clock advances of one developer all count', async () => {
  await Promise.all(Array.from({ length: 10 }, () => t.call('POST', '/sandbox/clock/advance', { seconds: 60 })));
  expect((await t.call('GET', '/sandbox/clock')).body.data).toEqual({
    now: '2026-11-21T09:40:00.000Z',
    offset_seconds: 600,
  });
});
