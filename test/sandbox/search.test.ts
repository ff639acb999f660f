import { describe, expect, it } from 'vitest';
import { createWallet, expectCleanAudit, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox();

const search = (query: string, key?: string) =>
  t.call('GET', `/sandbox/search?${query}`, undefined, key ? { key } : {});
const found = async (query: string, key?: string) => {
  const r = await search(query, key);
  expect(r.status).toBe(200);
  return r.body.data.items as { kind: string; id: string; matched: string; [field: string]: unknown }[];
};
const inbound = (body: Record<string, unknown>) => t.call('POST', '/sandbox/inbound-transfers', body);
const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });
const q = (text: string) => `q=${encodeURIComponent(text)}`;

/** Two customers, a credit each, a payment held in suspense: what a support shift searches. */
async function shift() {
  const ada = await createWallet(t, 0, { customer_reference: 'cust-ada-77', first_name: 'Ada', last_name: 'Okafor' });
  await advance(60);
  const bola = await createWallet(t, 0, {
    customer_reference: 'cust-bola-12',
    first_name: 'Bola',
    last_name: 'Tinubu',
  });
  await advance(60);
  const credit = (
    await inbound({
      account_number: ada.account_number,
      amount: 700_000,
      sender_name: 'OBI ADA NKECHI',
      narration: 'school fees for term two',
      provider_reference: '000013260101120000123456789012',
    })
  ).body.data.transaction;
  await advance(60);
  const held = (
    await inbound({
      account_number: bola.account_number,
      amount: 50_000,
      sender_name: 'MUSA KANO',
      sender_account: '0690000031',
      narration: 'rent SANDBOX-RISK',
      provider_reference: '000013260101130000999999999999',
    })
  ).body.data.suspense_item;
  return { ada, bola, credit, held };
}

describe('GET /sandbox/search', () => {
  it('finds a wallet by customer name words, customer reference, account number and the start of its id', async () => {
    const { ada } = await shift();
    const wallets = async (text: string) => (await found(`${q(text)}&kind=wallet`)).map((m) => [m.id, m.matched]);
    // A record is listed once, by the first of its fields that matches: `ada` is in her reference and her name.
    expect(await wallets('ada')).toEqual([[ada.id, 'customer_reference']]);
    expect(await wallets('okaf')).toEqual([[ada.id, 'customer_name']]);
    expect(await wallets('OKAFOR ada')).toEqual([[ada.id, 'customer_name']]);
    expect(await wallets('ada-77')).toEqual([[ada.id, 'customer_reference']]);
    expect(await wallets(ada.account_number)).toEqual([[ada.id, 'account_number']]);
    // Ids made in the same millisecond share their start; a prefix long enough to reach the random part names one.
    expect(await wallets(ada.id.slice(0, 23).toUpperCase())).toEqual([[ada.id, 'id']]);
    expect(await wallets(ada.id.replaceAll('-', '').slice(0, 22))).toEqual([[ada.id, 'id']]);
    expect(await wallets(ada.id.slice(-12, -5))).toEqual([[ada.id, 'id']]);
    expect(await wallets(ada.id)).toEqual([[ada.id, 'id']]);
    expect((await found(`${q(ada.account_number)}&kind=wallet`))[0]).toEqual({
      kind: 'wallet',
      id: ada.id,
      matched: 'account_number',
      created_at: ada.created_at,
      customer_name: 'Ada Okafor',
      customer_reference: 'cust-ada-77',
      account_number: ada.account_number,
      balance: 700_000,
      status: 'ACTIVE',
    });
    await expectCleanAudit(t);
  });

  it('finds a transaction by provider reference (whole or its start), sender name, narration words and id, with its webhook deliveries', async () => {
    const { ada, credit } = await shift();
    const kinds = async (text: string) => (await found(q(text))).map((m) => [m.kind, m.matched, m.id]);
    const logs = (await t.call('GET', '/v1/webhook-logs?event_type=ledger.credit')).body.data.items;
    expect(logs).toHaveLength(1);
    expect(await kinds(credit.provider_reference)).toEqual([
      ['transaction', 'provider_reference', credit.id],
      ['webhook_log', 'transaction', logs[0].id],
    ]);
    expect(await kinds(credit.provider_reference.slice(0, 16))).toEqual([
      ['transaction', 'provider_reference', credit.id],
    ]);
    expect(await kinds('ada nkechi')).toEqual([['transaction', 'sender_name', credit.id]]);
    expect(await kinds('okafor')).toEqual([['wallet', 'customer_name', ada.id]]);
    expect(await kinds('TERM fees')).toEqual([['transaction', 'raw_narration', credit.id]]);
    expect(await kinds('fees term three')).toEqual([]);
    expect(await kinds(credit.id)).toEqual([
      ['transaction', 'id', credit.id],
      ['webhook_log', 'transaction', logs[0].id],
    ]);
    expect((await found(`${q(credit.provider_reference)}&kind=transaction`))[0]).toEqual({
      kind: 'transaction',
      id: credit.id,
      matched: 'provider_reference',
      created_at: credit.created_at,
      type: 'CREDIT',
      amount: 700_000,
      status: 'SETTLED',
      wallet_id: ada.id,
      customer_name: 'Ada Okafor',
      sender_name: 'OBI ADA NKECHI',
      raw_narration: 'school fees for term two',
      provider_reference: '000013260101120000123456789012',
    });
  });

  it('finds a suspense item by provider reference, sender name and account, and the delivery that announced it', async () => {
    const { bola, held } = await shift();
    const created = (await t.call('GET', '/v1/webhook-logs?event_type=suspense.created')).body.data.items[0];
    expect((await found(q(held.provider_reference))).map((m) => [m.kind, m.matched, m.id])).toEqual([
      ['suspense_item', 'provider_reference', held.id],
      ['webhook_log', 'payload', created.id],
    ]);
    expect((await found(`q=musa&kind=suspense_item`)).map((m) => m.matched)).toEqual(['sender_name']);
    expect((await found(`q=0690000031`)).map((m) => [m.kind, m.matched])).toEqual([
      ['suspense_item', 'account_number'],
    ]);
    expect((await found(`${q(held.id)}&kind=suspense_item`))[0]).toEqual({
      kind: 'suspense_item',
      id: held.id,
      matched: 'id',
      created_at: held.created_at,
      amount: 50_000,
      reason: 'AI_RISK_FLAG',
      status: 'FLAGGED',
      sender_name: 'MUSA KANO',
      raw_narration: 'rent SANDBOX-RISK',
      provider_reference: '000013260101130000999999999999',
      account_number: bola.account_number,
      wallet_id: bola.id,
      customer_name: 'Bola Tinubu',
    });
    const [log] = await found(`${q(created.id.slice(-12))}&kind=webhook_log`);
    expect(log).toEqual({
      kind: 'webhook_log',
      id: created.id,
      matched: 'id',
      created_at: created.created_at,
      event_type: 'suspense.created',
      status: created.status,
      attempt_count: created.attempt_count,
      event_id: created.event_id,
      transaction_id: null,
      wallet_id: bola.id,
    });
    // The start of the tail, in an odd number of hex digits and in capitals: the last digit covers half a byte.
    for (const start of [created.id.slice(-12, -7), created.id.slice(-12, -5).toUpperCase()]) {
      expect(
        (await found(`${q(start)}&kind=webhook_log`)).map((item) => item.id),
        start,
      ).toContain(created.id);
    }
  });

  it('lists each kind newest first, in the order of kinds, and says which kinds had more than the limit', async () => {
    const first = await createWallet(t, 0, { first_name: 'Chidi', customer_reference: 'c-1' });
    await advance(1);
    const second = await createWallet(t, 0, { first_name: 'Chidi', customer_reference: 'c-2' });
    const third = await createWallet(t, 0, { first_name: 'Chidi', customer_reference: 'c-3' });
    await inbound({ account_number: first.account_number, amount: 100, sender_name: 'CHIDI SENDER' });
    const r = await search('q=chidi&limit=2');
    expect(
      r.body.data.items.map((m: { kind: string; id: string }) => [
        m.kind,
        m.id === third.id ? 'third' : m.id === second.id ? 'second' : m.kind === 'wallet' ? 'first' : 'tx',
      ]),
    ).toEqual([
      ['wallet', 'third'],
      ['wallet', 'second'],
      ['transaction', 'tx'],
    ]);
    expect(r.body.data.more).toEqual(['wallet']);
  });

  it('with match=id, names only what identifies one record; kind= restricts to one kind', async () => {
    const { ada } = await shift();
    expect(await found('q=ada&match=id')).toEqual([]);
    expect((await found(`${q(ada.account_number)}&match=id`)).map((m) => m.kind)).toEqual(['wallet']);
    expect(await found(`${q(ada.account_number)}&kind=agent`)).toEqual([]);
  });

  it("never finds another developer's records, by id, reference or name", async () => {
    const { ada, credit, held } = await shift();
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Bee Pay' })).body.data.api_key;
    for (const text of [
      ada.id,
      ada.id.slice(0, 23),
      ada.account_number,
      credit.provider_reference,
      held.id,
      held.provider_reference,
      'ada',
      'school fees',
      'musa',
    ]) {
      expect(await found(q(text), other)).toEqual([]);
    }
    expect((await found(q('ada'))).length).toBeGreaterThan(0);
  });

  it('refuses an empty, too short or malformed query with 400 VALIDATION_ERROR naming the parameter', async () => {
    for (const [query, field] of [
      ['', 'q'],
      ['q=', 'q'],
      ['q=%20%20ab%20', 'q'],
      ['q=ada&kind=payment', 'kind'],
      ['q=ada&match=all', 'match'],
      ['q=ada&limit=0', 'limit'],
      ['q=ada&limit=101', 'limit'],
      ['q=ada&page=2', 'page'],
    ] as const) {
      const r = await search(query);
      expect(r.status, query).toBe(400);
      expect(r.body.detail.code).toBe('VALIDATION_ERROR');
      expect(
        r.body.detail.fields.map((f: { field: string }) => f.field),
        query,
      ).toContain(field);
    }
  });
});
