import { describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../src/engine/db/sqlite/open.js';
import { emitEvent } from '../../src/engine/events/events.service.js';
import { findLog, type WebhookLogRow } from '../../src/engine/events/webhook-logs.repository.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import { createGroupCommit } from '../../src/engine/db/sqlite/group-commit.js';
import { createWallet, expectCleanAudit, useSandbox } from '../helpers/sandbox.js';
import { VirtualClock } from '../../src/engine/clock.js';
import { seededIds } from '../../src/engine/ids.js';
import type { EngineEnv } from '../../src/engine/env.js';

// The deliveries a write makes go to the dispatcher from memory once it commits (the write hands them
// back: write-transaction.ts, Sandbox.onDeliveries): the built-in receiver gets them without the
// due-deliveries query reading them back. These tests
// hold that path to the bytes the query builds, and to what the database says when the two differ.

const t = useSandbox({ listen: true });

const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });

interface Received {
  webhook_id: string;
  body: string;
}

async function received(): Promise<Received[]> {
  return (await t.call('GET', '/sandbox/receiver/events?limit=100')).body.data.items as Received[];
}

async function logIds(): Promise<string[]> {
  return ((await t.call('GET', '/v1/webhook-logs?limit=100')).body.data.items as { id: string }[]).map((l) => l.id);
}

describe('deliveries handed over from memory', () => {
  it('are the rows the stored log gives, byte for byte, for every kind of event, and reach the built-in receiver once each', async () => {
    const fresh: WebhookLogRow[] = [];
    t.sandbox.onDeliveries((logs) => fresh.push(...logs));
    const a = await createWallet(t, 2_000_000); // ledger.credit
    const b = await createWallet(t);
    const narration = 'Rent "May" \\ naïra ₦ 😀 \u0001 </script>';
    expect(
      (
        await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
          destination_account_number: b.account_number,
          amount: 150_000,
          narration,
        })
      ).status,
    ).toBe(200);
    // A payout's debit (PENDING: its payload is stored) and its fee.
    expect(
      (
        await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
          destination_account_number: makeNuban('058', '012345678'),
          destination_bank_code: '058',
          amount: 500_000,
        })
      ).status,
    ).toBe(200);
    // suspense.created, then suspense.resolved and its credit.
    const held = (
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: b.account_number,
        amount: 7_000,
        narration: 'asdfgh',
      })
    ).body.data.suspense_item;
    expect(
      (await t.call('POST', `/v1/suspense/${held.id}/resolve`, { action: 'CREDIT_WALLET', target_wallet_id: b.id }))
        .status,
    ).toBe(200);
    await advance(1);

    const ids = await logIds();
    const got = await received();
    expect(got).toHaveLength(ids.length);
    expect(new Set(got.map((r) => r.webhook_id)).size).toBe(ids.length);
    expect(fresh.map((log) => log.id).sort()).toEqual([...ids].sort());
    const types = new Set<string>();
    for (const kept of fresh) {
      const log = (await findLog(t.sandbox.db, kept.id))!;
      types.add(log.event_type);
      // As the log was written (PENDING, due at once); delivered once since.
      expect(kept).toEqual({
        ...log,
        status: 'PENDING',
        attempt_count: 0,
        http_status_code: null,
        response_body: null,
        next_retry_at: log.created_at,
        delivered_at: null,
      });
      expect(log).toMatchObject({ status: 'DELIVERED', attempt_count: 1 });
      expect(got.find((r) => r.webhook_id === log.event_id)!.body).toBe(log.payload);
    }
    expect([...types].sort()).toEqual(['ledger.credit', 'ledger.debit', 'suspense.created', 'suspense.resolved']);
    await expectCleanAudit(t);
  });

  it('are not delivered when their logs are gone by the time of the handover (a reset), and what is new is', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 2_500,
    });
    expect((await t.call('POST', '/sandbox/reset')).status).toBe(200);
    const c = await createWallet(t, 300);
    await advance(1);
    const ids = await logIds();
    expect(ids).toHaveLength(1);
    const log = (await findLog(t.sandbox.db, ids[0]!))!;
    expect(log).toMatchObject({ status: 'DELIVERED', attempt_count: 1 });
    expect(JSON.parse(log.payload).data.wallet_id).toBe(c.id);
    expect((await received()).map((r) => r.webhook_id)).toEqual([log.event_id]);
    await expectCleanAudit(t);
  });
});

describe('the group commit’s fresh deliveries', () => {
  it('are those of the writes that committed, each write its own: a write rolled back to its savepoint, or a batch that failed, hands over none', async () => {
    const db = await openDatabase({ path: ':memory:' });
    try {
      const env: EngineEnv = {
        ids: seededIds('fresh'),
        secrets: seededIds('secrets'),
        clock: new VirtualClock(0, () => Date.parse('2026-11-21T09:30:00.000Z')),
        settlementDelaySeconds: 0,
      };
      const developerId = (await db.transaction().execute((trx) => createDeveloper(trx, env, 'Fresh Ltd')))
        .developer_id;
      let commits = 0;
      const { write } = createGroupCommit(db, { afterCommit: () => (commits += 1) });
      const event = (name: string, fail: boolean) =>
        write(async (trx) => {
          await emitEvent(trx, env, developerId, 'wallet.closed', { wallet_id: name });
          if (fail) throw new Error(`${name} changed its mind`);
          return name;
        });
      const results = await Promise.allSettled([event('a', false), event('b', true), event('c', false)]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(commits).toBe(1);
      const handed = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(
        handed.map(({ value, deliveries }) => [value, deliveries.map((log) => JSON.parse(log.payload).data.wallet_id)]),
      ).toEqual([
        ['a', ['a']],
        ['c', ['c']],
      ]);
      for (const log of handed.flatMap(({ deliveries }) => deliveries)) expect(log).toEqual(await findLog(db, log.seq));

      // A batch of one whose write fails commits nothing.
      await expect(event('d', true)).rejects.toThrow('d changed its mind');
      expect(commits).toBe(1);
    } finally {
      await closeDatabase(db);
    }
  });
});
