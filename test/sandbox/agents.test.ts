import { describe, expect, it } from 'vitest';
import { createWallet, useSandbox, balanceOf, getWallet } from '../helpers/sandbox.js';
import { typeCode } from '../../src/engine/events/stored.js';

const t = useSandbox();

type Body = Record<string, unknown>;
const agent = (walletId: string, body: Body) =>
  t.call('POST', `/v1/wallets/${walletId}/agents`, { name: 'rule', ...body });
const credit = (w: { account_number: string }, amount: number, narration = 'salary') =>
  t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount, narration });
const send = (from: string, to: { account_number: string }, amount: number) =>
  t.call('POST', `/v1/wallets/${from}/transfer`, { destination_account_number: to.account_number, amount });
const getAgent = async (id: string) =>
  (await t.call('GET', '/v1/agents?limit=100')).body.data.items.find((a: { id: string }) => a.id === id);
const runs = async (id: string) => (await t.call('GET', `/sandbox/agents/${id}/runs?limit=100`)).body.data.items;
const events = async (type: string) =>
  (
    await t.sandbox.db
      .selectFrom('events')
      .select('payload')
      .where('type_code', '=', typeCode(type))
      .orderBy('seq')
      .execute()
  ).map((e) => JSON.parse(e.payload).data);

describe('creating agents (decisions: Agents)', () => {
  it('creates an active agent with trigger_count 0', async () => {
    const w = await createWallet(t);
    const d = await createWallet(t);
    const r = await agent(w.id, {
      name: 'Savings sweep',
      trigger: 'BALANCE_ABOVE',
      threshold: 1_000_000,
      action: 'SWEEP',
      destination_wallet_id: d.id,
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({
      id: expect.any(String),
      wallet_id: w.id,
      developer_id: t.developerId,
      name: 'Savings sweep',
      trigger: 'BALANCE_ABOVE',
      threshold: 1_000_000,
      action: 'SWEEP',
      destination_wallet_id: d.id,
      sweep_amount: null,
      is_active: true,
      trigger_count: 0,
      last_triggered_at: null,
      created_at: '2026-11-21T09:30:00.000Z',
    });
  });

  it.each([
    [{ trigger: 'BALANCE_ABOVE', action: 'LOCK_WALLET' }, 'threshold', 'is required for BALANCE_ABOVE'],
    [{ trigger: 'ON_CREDIT', threshold: 5, action: 'LOCK_WALLET' }, 'threshold', 'is not used by ON_CREDIT'],
    [{ trigger: 'ON_CREDIT', action: 'SWEEP' }, 'destination_wallet_id', 'is required for SWEEP'],
    [
      { trigger: 'ON_CREDIT', action: 'PARTIAL_SWEEP', destination_wallet_id: 'x' },
      'sweep_amount',
      'is required for PARTIAL_SWEEP',
    ],
    [
      { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: 'x', sweep_amount: 5 },
      'sweep_amount',
      'is not used by SWEEP',
    ],
    [
      { trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY', destination_wallet_id: 'x' },
      'destination_wallet_id',
      'is not used by WEBHOOK_NOTIFY',
    ],
    [
      { trigger: 'SOMETIMES', action: 'LOCK_WALLET' },
      'trigger',
      'must be one of BALANCE_ABOVE, BALANCE_BELOW, ON_CREDIT, ON_CREDIT_AMOUNT_ABOVE',
    ],
    [
      { trigger: 'BALANCE_BELOW', threshold: '100', action: 'LOCK_WALLET' },
      'threshold',
      'must be an integer number of kobo',
    ],
    [{ trigger: 'ON_CREDIT', action: 'LOCK_WALLET', name: '' }, 'name', 'must not be empty'],
  ])('answers 400 to %j', async (body, field, message) => {
    const w = await createWallet(t);
    const r = await agent(w.id, body);
    expect(r.status).toBe(400);
    expect(r.body.detail.fields).toEqual([{ field, message }]);
  });

  it('refuses a closed wallet, a closed, foreign, unknown or own destination', async () => {
    const w = await createWallet(t);
    const closed = await createWallet(t);
    await t.call('POST', `/v1/wallets/${closed.id}/close`);
    const sweepTo = (id: string) => agent(w.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: id });
    expect((await agent(closed.id, { trigger: 'ON_CREDIT', action: 'LOCK_WALLET' })).body.detail.code).toBe(
      'WALLET_CLOSED',
    );
    expect([(await sweepTo(closed.id)).status, (await sweepTo(closed.id)).body.detail.code]).toEqual([
      409,
      'WALLET_CLOSED',
    ]);
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data.api_key;
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'o', first_name: 'O', last_name: 'P', email: 'o@p.ng' },
        { key: other },
      )
    ).body.data;
    expect((await sweepTo(theirs.id)).body).toEqual({
      success: false,
      // The owner's tenth request: ids count each developer's own requests.
      detail: { code: 'NOT_FOUND', message: 'destination wallet not found', request_id: 'req_00000010' },
    });
    expect((await sweepTo('nope')).status).toBe(404);
    expect((await sweepTo(w.id)).body.detail.fields).toEqual([
      { field: 'destination_wallet_id', message: "must be another wallet, not the agent's own" },
    ]);
    expect((await agent('nope', { trigger: 'ON_CREDIT', action: 'LOCK_WALLET' })).status).toBe(404);
    expect(
      (
        await t.call(
          'POST',
          `/v1/wallets/${w.id}/agents`,
          { name: 'x', trigger: 'ON_CREDIT', action: 'LOCK_WALLET' },
          { key: other },
        )
      ).status,
    ).toBe(404);
  });

  it('an agent of a closed wallet is not switched on (409 WALLET_CLOSED), and switching it off still works', async () => {
    const w = await createWallet(t);
    const created = (await agent(w.id, { trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' })).body.data;
    const toggle = (is_active: boolean) =>
      t.call('PATCH', `/v1/wallets/${w.id}/agents/${created.id}/toggle`, { is_active });
    expect((await toggle(false)).body.data.is_active).toBe(false);
    await t.call('POST', `/v1/wallets/${w.id}/close`);
    const on = await toggle(true);
    expect([on.status, on.body.detail]).toEqual([
      409,
      { code: 'WALLET_CLOSED', message: 'agents of a closed wallet cannot be switched on', request_id: 'req_00000006' },
    ]);
    expect((await t.call('GET', `/v1/agents?wallet_id=${w.id}`)).body.data.items).toEqual([
      expect.objectContaining({ id: created.id, is_active: false }),
    ]);
    expect((await toggle(false)).status).toBe(200);
  });
});

/** How to make each trigger fire on a wallet that starts with 2,000 kobo (threshold 1,000). */
const TRIGGERS = {
  BALANCE_ABOVE: { threshold: 3_000, fire: async (w: { account_number: string }) => credit(w, 1_500) },
  BALANCE_BELOW: {
    threshold: 1_000,
    fire: async (w: { id: string }, sink: { account_number: string }) => send(w.id, sink, 1_500),
  },
  ON_CREDIT: { threshold: undefined, fire: async (w: { account_number: string }) => credit(w, 700) },
  ON_CREDIT_AMOUNT_ABOVE: { threshold: 1_000, fire: async (w: { account_number: string }) => credit(w, 1_200) },
} as const;

describe('every trigger × action', () => {
  const cases = Object.keys(TRIGGERS).flatMap((trigger) =>
    ['SWEEP', 'PARTIAL_SWEEP', 'WEBHOOK_NOTIFY', 'LOCK_WALLET'].map((action) => [trigger, action] as const),
  );
  it.each(cases)('%s → %s', async (trigger, action) => {
    const w = await createWallet(t, 2_000);
    const destination = await createWallet(t);
    const sink = await createWallet(t);
    const spec = TRIGGERS[trigger as keyof typeof TRIGGERS];
    const created = (
      await agent(w.id, {
        trigger,
        action,
        ...(spec.threshold !== undefined ? { threshold: spec.threshold } : {}),
        ...(action.includes('SWEEP') ? { destination_wallet_id: destination.id } : {}),
        ...(action === 'PARTIAL_SWEEP' ? { sweep_amount: 100 } : {}),
      })
    ).body.data;
    const fired = await spec.fire(w as never, sink as never);
    expect(fired.status).toBe(200);
    const before = { BALANCE_ABOVE: 3_500, BALANCE_BELOW: 500, ON_CREDIT: 2_700, ON_CREDIT_AMOUNT_ABOVE: 3_200 }[
      trigger as 'ON_CREDIT'
    ];
    const after = await getWallet(t, w.id);
    if (action === 'SWEEP') expect([after.balance, await balanceOf(t, destination.id)]).toEqual([0, before]);
    if (action === 'PARTIAL_SWEEP')
      expect([after.balance, await balanceOf(t, destination.id)]).toEqual([before - 100, 100]);
    if (action === 'LOCK_WALLET') expect(after.allow_transfers_out).toBe(false);
    // The transfer that set the agent off answers with the balance after the agent's own move.
    if (trigger === 'BALANCE_BELOW') expect(fired.body.data.new_balance).toBe(after.balance);
    if (action === 'WEBHOOK_NOTIFY') {
      expect(await events('agent.triggered')).toEqual([
        expect.objectContaining({
          agent_id: created.id,
          wallet_id: w.id,
          trigger,
          action,
          balance: before,
          transaction_id: expect.any(String),
        }),
      ]);
    }
    const now = await getAgent(created.id);
    expect([now.trigger_count, now.last_triggered_at]).toEqual([1, '2026-11-21T09:30:00.000Z']);
    expect((await runs(created.id)).map((r: { outcome: string }) => r.outcome)).toEqual(['DONE']);
  });
});

describe('firing rules', () => {
  it('BALANCE_ABOVE fires on crossing, not while the balance stays above', async () => {
    const w = await createWallet(t);
    const sink = await createWallet(t);
    const a = (await agent(w.id, { trigger: 'BALANCE_ABOVE', threshold: 1_000, action: 'WEBHOOK_NOTIFY' })).body.data;
    await credit(w, 1_000);
    expect((await getAgent(a.id)).trigger_count).toBe(0);
    await credit(w, 500);
    expect((await getAgent(a.id)).trigger_count).toBe(1);
    await credit(w, 500);
    expect((await getAgent(a.id)).trigger_count).toBe(1);
    await send(w.id, sink, 1_200);
    await credit(w, 400);
    expect((await getAgent(a.id)).trigger_count).toBe(2);
    expect((await events('agent.triggered')).map((e) => [e.balance_before, e.balance])).toEqual([
      [1_000, 1_500],
      [800, 1_200],
    ]);
  });

  it('ON_CREDIT_AMOUNT_ABOVE ignores a credit at or below the threshold, and debits never count as credits', async () => {
    const w = await createWallet(t, 5_000);
    const sink = await createWallet(t);
    const a = (await agent(w.id, { trigger: 'ON_CREDIT_AMOUNT_ABOVE', threshold: 1_000, action: 'WEBHOOK_NOTIFY' }))
      .body.data;
    const b = (await agent(w.id, { trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' })).body.data;
    await credit(w, 1_000);
    await send(w.id, sink, 2_000);
    expect([(await getAgent(a.id)).trigger_count, (await getAgent(b.id)).trigger_count]).toEqual([0, 1]);
  });

  it('an agent made after its wallet has moved money fires on the next movement (no stale "no agents")', async () => {
    const w = await createWallet(t, 1_000);
    const d = await createWallet(t);
    await send(w.id, d, 100);
    await send(d.id, w, 100);
    const a = (await agent(d.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: w.id })).body.data;
    await send(w.id, d, 300);
    expect([await balanceOf(t, w.id), await balanceOf(t, d.id), (await getAgent(a.id)).trigger_count]).toEqual([
      1_000, 0, 1,
    ]);
  });

  it('a disabled agent does nothing until enabled again', async () => {
    const w = await createWallet(t);
    const d = await createWallet(t);
    const a = (await agent(w.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: d.id })).body.data;
    const off = await t.call('PATCH', `/v1/wallets/${w.id}/agents/${a.id}/toggle`, { is_active: false });
    expect(off.body.data.is_active).toBe(false);
    await credit(w, 900);
    expect([await balanceOf(t, w.id), await balanceOf(t, d.id), (await getAgent(a.id)).trigger_count]).toEqual([
      900, 0, 0,
    ]);
    await t.call('PATCH', `/v1/wallets/${w.id}/agents/${a.id}/toggle`, { is_active: true });
    await credit(w, 100);
    expect([await balanceOf(t, w.id), await balanceOf(t, d.id)]).toEqual([0, 1_000]);
    expect((await t.call('PATCH', `/v1/wallets/${d.id}/agents/${a.id}/toggle`, { is_active: true })).status).toBe(404);
    expect((await t.call('PATCH', `/v1/wallets/${w.id}/agents/${a.id}/toggle`, { is_active: 'yes' })).status).toBe(400);
  });

  it('runs active agents in creation order, and a lock stops a later sweep', async () => {
    const w = await createWallet(t);
    const d = await createWallet(t);
    const lock = (await agent(w.id, { trigger: 'ON_CREDIT', action: 'LOCK_WALLET' })).body.data;
    const sweep = (await agent(w.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: d.id })).body.data;
    await credit(w, 5_000);
    expect(await balanceOf(t, w.id)).toBe(5_000);
    expect((await runs(lock.id))[0]).toMatchObject({
      outcome: 'DONE',
      effect: 'locked the wallet: allow_transfers_out is now false',
    });
    expect((await runs(sweep.id))[0]).toMatchObject({
      outcome: 'FAILED',
      effect: 'moved nothing',
      error: 'TRANSFERS_DISABLED: transfers out of this wallet are disabled',
    });
    const blocked = await send(w.id, d, 1);
    expect([blocked.status, blocked.body.detail.code]).toEqual([403, 'TRANSFERS_DISABLED']);
    expect(await events('agent.failed')).toEqual([expect.objectContaining({ agent_id: sweep.id, action: 'SWEEP' })]);
  });

  it('PARTIAL_SWEEP with too little balance fires agent.failed and moves nothing', async () => {
    const w = await createWallet(t);
    const d = await createWallet(t);
    const a = (
      await agent(w.id, {
        trigger: 'ON_CREDIT',
        action: 'PARTIAL_SWEEP',
        destination_wallet_id: d.id,
        sweep_amount: 5_000,
      })
    ).body.data;
    await credit(w, 1_000);
    expect([await balanceOf(t, w.id), await balanceOf(t, d.id)]).toEqual([1_000, 0]);
    expect(await events('agent.failed')).toEqual([
      expect.objectContaining({
        agent_id: a.id,
        error: 'INSUFFICIENT_FUNDS: balance 1000 is less than sweep_amount 5000',
        balance: 1_000,
      }),
    ]);
    expect((await getAgent(a.id)).trigger_count).toBe(1);
  });

  it('a destination closed after the agent was made fails the sweep', async () => {
    const w = await createWallet(t);
    const d = await createWallet(t);
    await agent(w.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: d.id });
    await t.call('POST', `/v1/wallets/${d.id}/close`);
    await credit(w, 1_000);
    expect(await balanceOf(t, w.id)).toBe(1_000);
    expect((await events('agent.failed'))[0].error).toBe('WALLET_CLOSED: the destination wallet is closed');
  });
});

describe('cascades', () => {
  it('A sweeps to B while B sweeps to A: it terminates, each fires once, the audit is clean', async () => {
    const a = await createWallet(t);
    const b = await createWallet(t);
    const ab = (await agent(a.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: b.id })).body.data;
    const ba = (await agent(b.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: a.id })).body.data;
    expect((await credit(a, 10_000)).status).toBe(200);
    expect([await balanceOf(t, a.id), await balanceOf(t, b.id)]).toEqual([10_000, 0]);
    expect([(await getAgent(ab.id)).trigger_count, (await getAgent(ba.id)).trigger_count]).toEqual([1, 1]);
    expect((await runs(ab.id)).map((r: { outcome: string; hop: number }) => [r.outcome, r.hop])).toEqual([
      ['DONE', 0],
      ['SKIPPED', 2],
    ]);
    const sweeps = (await t.call('GET', `/v1/wallets/${a.id}/transactions`)).body.data.items.filter(
      (x: { agent_id: string | null }) => x.agent_id,
    );
    expect(sweeps.map((x: { type: string; agent_id: string }) => [x.type, x.agent_id])).toEqual([
      ['DEBIT', ab.id],
      ['CREDIT', ba.id],
    ]);
  });

  it('a chain of 10 wallets stops after 8 hops', async () => {
    const chain = [];
    for (let i = 0; i < 10; i++) chain.push(await createWallet(t));
    const agents = [];
    for (let i = 0; i < 9; i++)
      agents.push(
        (await agent(chain[i]!.id, { trigger: 'ON_CREDIT', action: 'SWEEP', destination_wallet_id: chain[i + 1]!.id }))
          .body.data,
      );
    await credit(chain[0]!, 50_000);
    const balances = await Promise.all(chain.map((w) => balanceOf(t, w.id)));
    expect(balances).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 50_000, 0]);
    const counts = await Promise.all(agents.map(async (a) => (await getAgent(a.id)).trigger_count));
    expect(counts).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(await runs(agents[8]!.id)).toEqual([
      expect.objectContaining({ outcome: 'SKIPPED', hop: 8, effect: 'nothing: the cascade reached 8 hops' }),
    ]);
  });

  it('agents run on credits from suspense resolutions and payout reversals too', async () => {
    const w = await createWallet(t, 100_000);
    const a = (await agent(w.id, { trigger: 'ON_CREDIT', action: 'WEBHOOK_NOTIFY' })).body.data;
    const held = (await credit(w, 5_000, 'asdfgh')).body.data.suspense_item;
    await t.call('POST', `/v1/suspense/${held.id}/resolve`, { action: 'CREDIT_WALLET', target_wallet_id: w.id });
    const payout = await t.call('POST', `/v1/wallets/${w.id}/transfer`, {
      destination_account_number: '2222222222',
      destination_bank_code: '058',
      amount: 1_000,
    });
    await t.call('POST', `/sandbox/payouts/${payout.body.data.transaction_id}/fail`);
    expect((await getAgent(a.id)).trigger_count).toBe(2);
  });
});

describe('the acceptance scenario', () => {
  it('BALANCE_ABOVE 1,000,000 SWEEP into savings: two credits of 600,000', async () => {
    const w = await createWallet(t);
    const savings = await createWallet(t);
    const a = (
      await agent(w.id, {
        name: 'To savings',
        trigger: 'BALANCE_ABOVE',
        threshold: 1_000_000,
        action: 'SWEEP',
        destination_wallet_id: savings.id,
      })
    ).body.data;
    await credit(w, 600_000);
    expect(await balanceOf(t, w.id)).toBe(600_000);
    await credit(w, 600_000);
    expect([await balanceOf(t, w.id), await balanceOf(t, savings.id), (await getAgent(a.id)).trigger_count]).toEqual([
      0, 1_200_000, 1,
    ]);
    const listed = (await t.call('GET', `/v1/agents?wallet_id=${w.id}`)).body.data;
    expect([listed.total, listed.items[0].id]).toEqual([1, a.id]);
    expect((await t.call('GET', `/v1/agents?wallet_id=${savings.id}`)).body.data.total).toBe(0);
  });
});
