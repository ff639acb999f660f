import { describe, expect, it } from 'vitest';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

/** Real concurrency: many HTTP requests at once against a listening sandbox. */
const t = useSandbox({ listen: true });

const http = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': t.key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: response.status,
    body: (await response.json()) as any,
    replayed: response.headers.get('idempotent-replayed'),
  };
};

describe('races', () => {
  it('1,000 concurrent debits on 10,000 kobo: never below 0, accepted total ≤ 10,000', async () => {
    const from = await createWallet(t, 10_000);
    const to = await createWallet(t);
    const amounts = Array.from({ length: 1000 }, (_, i) => 1 + (i % 37));
    const results = await Promise.all(
      amounts.map((amount) =>
        http('POST', `/v1/wallets/${from.id}/transfer`, { destination_account_number: to.account_number, amount }),
      ),
    );
    const accepted = results.map((r, i) => (r.status === 200 ? amounts[i]! : 0)).reduce((a, b) => a + b, 0);
    expect(
      results.every((r) => r.status === 200 || (r.status === 422 && r.body.detail.code === 'INSUFFICIENT_FUNDS')),
    ).toBe(true);
    expect(accepted).toBeLessThanOrEqual(10_000);
    const [a, b] = await Promise.all([http('GET', `/v1/wallets/${from.id}`), http('GET', `/v1/wallets/${to.id}`)]);
    expect(a.body.data.balance).toBe(10_000 - accepted);
    expect(b.body.data.balance).toBe(accepted);
    expect(a.body.data.balance).toBeGreaterThanOrEqual(0);
  });

  it('100 concurrent requests with one Idempotency-Key: one effect, identical responses', async () => {
    const from = await createWallet(t, 50_000);
    const to = await createWallet(t);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        http(
          'POST',
          `/v1/wallets/${from.id}/transfer`,
          { destination_account_number: to.account_number, amount: 1_234 },
          { 'idempotency-key': 'same-key' },
        ),
      ),
    );
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results.filter((r) => r.replayed === 'true')).toHaveLength(99);
    expect((await http('GET', `/v1/wallets/${to.id}`)).body.data.balance).toBe(1_234);
  });

  it('100 concurrent resolves of one suspense item: one wins', async () => {
    const w = await createWallet(t);
    const item = (
      await http('POST', '/sandbox/inbound-transfers', {
        account_number: w.account_number,
        amount: 5_000,
        narration: 'asdfgh',
      })
    ).body.data.suspense_item;
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        http('POST', `/v1/suspense/${item.id}/resolve`, { action: 'CREDIT_WALLET', target_wallet_id: w.id }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.detail.code === 'SUSPENSE_ALREADY_RESOLVED')).toHaveLength(
      99,
    );
    expect((await http('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(5_000);
  });

  it('concurrent settle and fail of one payout: one wins', async () => {
    const w = await createWallet(t, 100_000);
    const payout = (
      await http('POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: '2222222222',
        destination_bank_code: '058',
        amount: 10_000,
      })
    ).body.data;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http('POST', `/sandbox/payouts/${payout.transaction_id}/${i % 2 ? 'fail' : 'settle'}`),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(19);
    const balance = (await http('GET', `/v1/wallets/${w.id}`)).body.data.balance;
    expect(balance).toBe(winners[0]!.body.data.status === 'SETTLED' ? 89_000 : 100_000);
  });
});
