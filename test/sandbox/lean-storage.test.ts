import { createServer } from 'node:http';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createWallet, expectCleanAudit, useSandbox } from '../helpers/sandbox.js';
import { startWebhookApp } from '../helpers/webhook-app.js';
import { storedId, typeName } from '../../src/engine/events/stored.js';

// A ledger event of a SETTLED transaction stores no payload: it is built from the transaction when
// sent or shown (migration 0015). These tests hold it to the bytes of the documented envelope,
// for every kind of ledger event, on the first send and on every redelivery, and to the state at
// the event's time for a transaction that changes afterwards (a payout's debit).

const t = useSandbox({ listen: true });

const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { seconds });
const secret = async () => (await t.call('GET', '/sandbox/webhook-endpoint')).body.data.secret as string;

interface Log {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  created_at: string;
  payload: { data: { transaction_id?: string } };
}

async function allLogs(): Promise<Log[]> {
  const items: Log[] = [];
  for (let page = 1; ; page++) {
    const data = (await t.call('GET', `/v1/webhook-logs?limit=100&page=${page}`)).body.data;
    items.push(...data.items);
    if (items.length >= data.total) return items;
  }
}

/** The envelope of a ledger event (decisions: Webhooks), written out key by key in its documented order, from the transaction as the API shows it. */
function expectedLedgerEnvelope(log: Log, tx: Record<string, unknown>, statusThen: string): string {
  return JSON.stringify({
    event_id: log.event_id,
    event_type: log.event_type,
    api_version: '2026-11-01',
    created_at: log.created_at,
    data: {
      transaction_id: tx.id,
      wallet_id: tx.wallet_id,
      type: tx.type,
      amount: tx.amount,
      balance_before: tx.balance_before,
      balance_after: tx.balance_after,
      currency: tx.currency,
      status: statusThen,
      provider_reference: tx.provider_reference,
      sender_name: tx.sender_name,
      sender_account: tx.sender_account,
      narration: tx.raw_narration,
      ...(tx.destination_account_number
        ? {
            destination_account_number: tx.destination_account_number,
            destination_bank_code: tx.destination_bank_code,
            destination_account_name: tx.destination_account_name,
          }
        : {}),
    },
  });
}

describe('ledger event payloads built from their transactions', () => {
  it('sends the same bytes as the envelope, on every attempt, for every kind of ledger event, with a payout debit as it was when announced', async () => {
    let failing = true;
    const signing = await secret();
    const app = await startWebhookApp(
      () => signing,
      () => (failing ? 500 : 200),
    );
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      const a = await createWallet(t, 2_000_000); // inbound credit
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
      const settles = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: makeNuban('058', '012345678'),
        destination_bank_code: '058',
        amount: 500_000,
      });
      const fails = await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: '1111111111',
        destination_bank_code: '044',
        amount: 100_000,
      });
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
      await advance(1); // first attempts, all refused
      await advance(2); // the payouts settle and fail (a reversal), their first attempts refused too
      failing = false;
      for (const seconds of [5, 300, 1800]) await advance(seconds);

      const logs = await allLogs();
      expect(logs.every((l) => l.status === 'DELIVERED')).toBe(true);
      const pendingDebits = new Set([settles.body.data.transaction_id, fails.body.data.transaction_id]);
      const ledger = logs.filter((l) => l.event_type === 'ledger.credit' || l.event_type === 'ledger.debit');
      // credit, transfer's two legs, two payouts' debits and fees, the reversal, the suspense credit
      expect(ledger).toHaveLength(9);
      for (const log of ledger) {
        const tx = (await t.call('GET', `/v1/transactions/${log.payload.data.transaction_id}`)).body.data;
        const expected = expectedLedgerEnvelope(log, tx, pendingDebits.has(tx.id) ? 'PENDING' : 'SETTLED');
        const sent = app.received.filter((r) => r.id === log.event_id);
        expect(sent.length).toBeGreaterThanOrEqual(2);
        for (const attempt of sent) expect(attempt.body).toBe(expected);
        expect(sent.every((r) => r.verified)).toBe(true);
        expect(log.payload).toEqual(JSON.parse(expected));
        expect((await t.call('GET', `/sandbox/webhook-logs/${log.id}`)).body.data.payload).toEqual(
          JSON.parse(expected),
        );
      }
      // Both payout debits changed status after their events: their events still say PENDING.
      const payoutStatuses = await Promise.all(
        [...pendingDebits].map(async (id) => (await t.call('GET', `/v1/transactions/${id}`)).body.data.status),
      );
      expect(payoutStatuses.sort()).toEqual(['FAILED', 'SETTLED']);
      // Every other event's redeliveries repeat its first bytes too.
      for (const log of logs)
        expect(new Set(app.received.filter((r) => r.id === log.event_id).map((r) => r.body)).size).toBe(1);

      // Stored: the PENDING debits' events and the events that are not ledger events; built: the rest.
      const stored = await t.sandbox.db
        .selectFrom('events')
        .select(['type_code', sql<number>`case when payload != '' then 1 else 0 end`.as('stored'), 'transaction_seq'])
        .orderBy('seq')
        .execute();
      expect(stored.filter((e) => e.stored === 0)).toHaveLength(7);
      expect(
        stored
          .filter((e) => e.stored === 0)
          .every((e) => e.transaction_seq !== null && typeName(e.type_code).startsWith('ledger.')),
      ).toBe(true);
      expect(stored.filter((e) => e.stored === 1).every((e) => e.transaction_seq === null)).toBe(true);
      await expectCleanAudit(t);
    } finally {
      await app.close();
    }
  });

  it('shows the built payload in the built-in receiver’s record, and the audit notices an event pointing at the wrong transaction', async () => {
    const a = await createWallet(t, 10_000);
    const b = await createWallet(t);
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 2_500,
    });
    await advance(1);
    const logs = await allLogs();
    const received = (await t.call('GET', '/sandbox/receiver/events?limit=100')).body.data.items as {
      webhook_id: string;
      body: string;
    }[];
    expect(received).toHaveLength(3);
    for (const log of logs)
      expect(received.find((r) => r.webhook_id === log.event_id)!.body).toBe(JSON.stringify(log.payload));
    await expectCleanAudit(t);

    // The transfer's debit event made to point at the credit's transaction: the debit has no event.
    const debit = logs.find((l) => l.event_type === 'ledger.debit')!;
    const credit = logs.find(
      (l) =>
        l.event_type === 'ledger.credit' &&
        l.payload.data.transaction_id !== undefined &&
        l.created_at === debit.created_at,
    )!;
    const creditSeq = (
      await t.sandbox.db
        .selectFrom('events')
        .select('transaction_seq')
        .where('id', '=', storedId(t.sandbox.db, credit.event_id))
        .executeTakeFirstOrThrow()
    ).transaction_seq;
    await t.sandbox.db
      .updateTable('events')
      .set({ transaction_seq: creditSeq })
      .where('id', '=', storedId(t.sandbox.db, debit.event_id))
      .execute();
    const report = (await t.call('GET', '/sandbox/audit')).body.data;
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ check: 'event_for_movement', id: debit.payload.data.transaction_id }),
      ]),
    );
    const debitSeq = (
      await t.sandbox.db
        .selectFrom('transactions')
        .select('seq')
        .where('id', '=', debit.payload.data.transaction_id!)
        .executeTakeFirstOrThrow()
    ).seq;
    await t.sandbox.db
      .updateTable('events')
      .set({ transaction_seq: debitSeq })
      .where('id', '=', storedId(t.sandbox.db, debit.event_id))
      .execute();
  });
});

describe('the built-in receiver’s standard answer, stored once', () => {
  it('shows the answer on logs, attempts and the stream’s rows while storing NULL, and keeps any other answer as it came', async () => {
    const accepted = JSON.stringify({ received: true, signature_valid: true });
    const w = await createWallet(t, 5_000);
    await advance(1);
    const [log] = (await allLogs()) as (Log & { response_body: string | null })[];
    expect(log).toMatchObject({ status: 'DELIVERED', response_body: accepted });
    expect((await t.call('GET', `/sandbox/webhook-logs/${log!.id}`)).body.data.response_body).toBe(accepted);
    const attempts = (await t.call('GET', `/sandbox/webhook-logs/${log!.id}/attempts`)).body.data.items;
    expect(attempts.map((a: { response_body: string }) => a.response_body)).toEqual([accepted]);
    const stored = await t.sandbox.db
      .selectFrom('webhook_attempts')
      .select('response_body')
      .unionAll(t.sandbox.db.selectFrom('webhook_logs').select('response_body'))
      .execute();
    expect(stored).toEqual([{ response_body: null }, { response_body: null }]);

    // An application's answers, whatever they are, read back as they came: empty, the same words, an error.
    const answers = ['', accepted, 'nope'];
    const bodies = [...answers];
    const server = createServer((_request, response) =>
      response.writeHead(bodies.length === 1 ? 500 : 200).end(bodies.shift()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await t.call('PUT', '/sandbox/webhook-endpoint', {
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
      });
      for (const amount of [1, 2, 3]) {
        await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount });
        await advance(1);
      }
      const logs = (await allLogs()).slice(1) as (Log & { response_body: string | null; http_status_code: number })[];
      expect(logs.map((l) => [l.http_status_code, l.response_body])).toEqual([
        [200, ''],
        [200, accepted],
        [500, 'nope'],
      ]);
      const firstAnswers = await Promise.all(
        logs.map(
          async (l) => (await t.call('GET', `/sandbox/webhook-logs/${l.id}/attempts`)).body.data.items[0].response_body,
        ),
      );
      expect(firstAnswers).toEqual(answers);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
