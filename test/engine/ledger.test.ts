import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { audit } from '../../src/engine/audit/audit.service.js';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import type { EngineEnv } from '../../src/engine/env.js';
import { LedgerError } from '../../src/engine/errors.js';
import { seededIds } from '../../src/engine/ids.js';
import { receiveInbound } from '../../src/engine/inbound/inbound.service.js';
import { findSystemAccountId, findSystemAccountIds } from '../../src/engine/ledger/accounts.repository.js';
import { post } from '../../src/engine/ledger/ledger.service.js';
import { transfer } from '../../src/engine/transfers/transfers.service.js';
import { createWallet, getWallet } from '../../src/engine/wallets/wallets.service.js';

let db: Db;
let env: EngineEnv;
let developerId: string;

const tx = {
  status: 'SETTLED' as const,
  provider_reference: 'ref',
  sender_name: 'S',
  sender_account: '',
  raw_narration: 'n',
};

async function wallet(reference: string, fund = 0) {
  const w = await db.transaction().execute((trx) =>
    createWallet(trx, env, developerId, {
      customer_reference: reference,
      first_name: 'Ada',
      last_name: 'Obi',
      email: 'a@example.com',
    }),
  );
  if (fund)
    await db
      .transaction()
      .execute((trx) => receiveInbound(trx, env, developerId, { account_number: w.account_number, amount: fund }));
  return w;
}

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  env = { clock: new ManualClock(), ids: seededIds('ledger') };
  developerId = (await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'))).developer_id;
});
afterEach(() => db.destroy());

describe('post()', () => {
  it('refuses an unbalanced posting before writing anything', async () => {
    const w = await wallet('a');
    const settlement = await findSystemAccountId(db, developerId, 'PROVIDER_SETTLEMENT');
    await expect(
      db.transaction().execute((trx) =>
        post(trx, env, {
          developerId,
          kind: 'BROKEN',
          legs: [
            { accountId: w.id, amount: 100, transaction: tx },
            { accountId: settlement, amount: -99 },
          ],
        }),
      ),
    ).rejects.toThrow(/unbalanced/);
    expect((await getWallet(db, developerId, w.id)).balance).toBe(0);
    expect((await audit(db)).ok).toBe(true);
  });

  it('refuses a debit past zero with INSUFFICIENT_FUNDS and rolls the whole posting back', async () => {
    const from = await wallet('a', 1000);
    const to = await wallet('b');
    const error = await db
      .transaction()
      .execute((trx) =>
        post(trx, env, {
          developerId,
          kind: 'T',
          legs: [
            { accountId: to.id, amount: 1001, transaction: tx },
            { accountId: from.id, amount: -1001, transaction: tx },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerError);
    expect((error as LedgerError).code).toBe('INSUFFICIENT_FUNDS');
    expect((await getWallet(db, developerId, from.id)).balance).toBe(1000);
    expect((await getWallet(db, developerId, to.id)).balance).toBe(0);
    expect((await db.selectFrom('transactions').selectAll().execute()).length).toBe(1);
    expect((await audit(db)).ok).toBe(true);
  });

  it('records balance_before and balance_after on each wallet leg', async () => {
    const from = await wallet('a', 5000);
    const to = await wallet('b', 100);
    const { transactions } = await db.transaction().execute((trx) =>
      post(trx, env, {
        developerId,
        kind: 'T',
        legs: [
          { accountId: from.id, amount: -1200, transaction: tx },
          { accountId: to.id, amount: 1200, transaction: tx },
        ],
      }),
    );
    expect(transactions.map((t) => [t.type, t.amount, t.balance_before, t.balance_after])).toEqual([
      ['DEBIT', 1200, 5000, 3800],
      ['CREDIT', 1200, 100, 1300],
    ]);
  });

  it('lets exactly one of two concurrent 70% debits through', async () => {
    const from = await wallet('a', 10_000);
    const to = await wallet('b');
    const send = () =>
      db
        .transaction()
        .execute((trx) =>
          transfer(trx, env, developerId, from.id, { destination_account_number: to.account_number, amount: 7000 }),
        );
    const results = await Promise.allSettled([send(), send()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as LedgerError).code).toBe('INSUFFICIENT_FUNDS');
    expect((await getWallet(db, developerId, from.id)).balance).toBe(3000);
    expect((await getWallet(db, developerId, to.id)).balance).toBe(7000);
    expect((await audit(db)).ok).toBe(true);
  });
});

describe('the bounds of system accounts', () => {
  /** As SQLite holds it, as text: exact where a JavaScript number is not. */
  const exact = async (id: string) =>
    (await sql<{ b: string }>`select cast(balance as text) as b from accounts where id = ${id}`.execute(db)).rows[0]!.b;
  const move = (from: string, to: string, amount: number) =>
    db.transaction().execute((trx) =>
      post(trx, env, {
        developerId,
        kind: 'TEST',
        legs: [
          { accountId: from, amount: -amount },
          { accountId: to, amount },
        ],
      }),
    );

  it('holds a whole developer’s money past 2^53 exactly, up to 2^63 − 2^53, then refuses with 400 on amount', async () => {
    const [settlement, dismissed] = await findSystemAccountIds(db, developerId, [
      'PROVIDER_SETTLEMENT',
      'DISMISSED',
    ] as const);
    const max = Number.MAX_SAFE_INTEGER;
    for (let i = 0; i < 1023; i += 1) await move(settlement, dismissed, max);
    await move(settlement, dismissed, 1);
    // 1023 × (2^53 − 1) + 1: integer arithmetic in SQL, where a REAL sum would have lost the 1.
    expect(await exact(settlement)).toBe('-9214364837600033794');
    await move(settlement, dismissed, 1021);
    expect(await exact(settlement)).toBe('-9214364837600034815');
    await move(settlement, dismissed, 1);
    expect(await exact(settlement)).toBe('-9214364837600034816');

    const refused = await move(settlement, dismissed, 1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LedgerError);
    expect((refused as LedgerError).code).toBe('VALIDATION_ERROR');
    expect((refused as LedgerError).fields).toEqual([
      {
        field: 'amount',
        message: expect.stringContaining('provider_settlement account would pass 9214364837600034816 kobo'),
      },
    ]);
    expect(await exact(settlement)).toBe('-9214364837600034816');
    expect(await exact(dismissed)).toBe('9214364837600034816');
    expect((await audit(db)).problems).toEqual([]);
  });
});

describe('audit()', () => {
  it('is clean on a fresh database and after movements', async () => {
    expect((await audit(db)).problems).toEqual([]);
    const a = await wallet('a', 5000);
    const b = await wallet('b');
    await db
      .transaction()
      .execute((trx) =>
        transfer(trx, env, developerId, a.id, { destination_account_number: b.account_number, amount: 2500 }),
      );
    const report = await audit(db);
    expect(report.ok).toBe(true);
    expect(report.checked).toMatchObject({
      wallets: 2,
      transactions: 3,
      postings: 2,
      entries: 4,
      events: 3,
      webhook_logs: 3,
    });
  });

  it('catches a balance changed behind the ledger’s back', async () => {
    const a = await wallet('a', 5000);
    await db.updateTable('accounts').set({ balance: 6000 }).where('id', '=', a.id).execute();
    const report = await audit(db);
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.check)).toEqual(
      expect.arrayContaining(['balance_equals_entries', 'balance_chain', 'developer_balanced']),
    );
  });

  it('catches a movement whose webhook delivery row is missing', async () => {
    await wallet('a', 5000);
    await db.deleteFrom('webhook_logs').execute();
    const report = await audit(db);
    expect(report.problems.map((p) => p.check)).toContain('delivery_for_event');
  });

  it('catches suspense_holding off by one kobo even past 2^53, where JavaScript numbers cannot tell', async () => {
    const w = await wallet('a');
    for (const _ of [1, 2])
      await db.transaction().execute((trx) =>
        receiveInbound(trx, env, developerId, {
          account_number: w.account_number,
          amount: 1000,
          narration: 'asdfgh',
        }),
      );
    expect((await audit(db)).ok).toBe(true);
    const holding = await findSystemAccountId(db, developerId, 'SUSPENSE_HOLDING');
    // Two items of 2^52 hold 2^53 between them; the account says one kobo more.
    await sql`update suspense_items set amount = 4503599627370496 where developer_id = ${developerId}`.execute(db);
    await sql`update accounts set balance = 9007199254740993 where id = ${holding}`.execute(db);
    const report = await audit(db);
    expect(report.problems.find((p) => p.check === 'suspense_holding')?.message).toBe(
      `suspense_holding of developer ${developerId} is 9007199254740993 but unresolved items total 9007199254740992`,
    );
  });

  it('catches a broken balance chain', async () => {
    const a = await wallet('a', 5000);
    await db
      .updateTable('transactions')
      .set({ balance_before: 1 })
      .where('account_seq', '=', (eb) => eb.selectFrom('accounts').select('seq').where('id', '=', a.id))
      .execute();
    expect((await audit(db)).problems.map((p) => p.check)).toContain('balance_chain');
  });
});

describe('audit() of payouts', () => {
  it('catches a failed payout whose reversal is missing', async () => {
    const { makeNuban } = await import('../../src/engine/wallets/nuban.js');
    const { resolvePayout } = await import('../../src/engine/payouts/payouts.service.js');
    const w = await wallet('a', 100_000);
    const sent = await db.transaction().execute((trx) =>
      transfer(trx, env, developerId, w.id, {
        destination_account_number: makeNuban('058', '111222333'),
        destination_bank_code: '058',
        amount: 10_000,
      }),
    );
    await db.transaction().execute((trx) => resolvePayout(trx, env, developerId, sent.transaction_id, 'FAIL'));
    expect((await audit(db)).ok).toBe(true);
    await db.updateTable('payouts').set({ reversal_transaction_id: null }).execute();
    expect((await audit(db)).problems.map((p) => p.check)).toEqual(['payout_reversal']);
  });
});
