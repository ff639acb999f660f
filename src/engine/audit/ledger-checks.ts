import { sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { inChunks, type Problems } from './scan.js';

// The money checks of the audit (decisions: Money and balances). Each answers with problem rows
// only, or reads its table in bounded chunks: an audit of a million transactions holds a few
// thousand at a time.

/** Every posting has at least two legs that sum to zero. */
export async function checkPostings(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  const unbalanced = await trx
    .selectFrom('postings')
    .leftJoin('entries', 'entries.posting_seq', 'postings.seq')
    .select(['postings.seq', (eb) => eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`).as('total')])
    .select((eb) => eb.fn.count<number>('entries.seq').as('legs'))
    .$if(dev !== undefined, (qb) => qb.where('postings.developer_id', '=', dev!))
    .groupBy('postings.seq')
    .having((eb) =>
      eb.or([
        eb(eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`), '!=', 0),
        eb(eb.fn.count('entries.seq'), '<', 2),
      ]),
    )
    .execute();
  for (const p of unbalanced) {
    problems.push({
      check: 'balanced_postings',
      id: String(p.seq),
      message: `posting ${p.seq} has ${p.legs} legs summing to ${p.total}, not 0`,
    });
  }
}

/** Balances equal their entries, no wallet is below zero, and every developer's books sum to zero. */
export async function checkBalances(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  const drift = await trx
    .selectFrom('accounts')
    .leftJoin('entries', 'entries.account_seq', 'accounts.seq')
    .select([
      'accounts.id',
      'accounts.kind',
      'accounts.balance',
      (eb) => eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`).as('total'),
    ])
    .$if(dev !== undefined, (qb) => qb.where('accounts.developer_id', '=', dev!))
    .groupBy(['accounts.id', 'accounts.kind', 'accounts.balance'])
    .having((eb) =>
      eb(eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`), '!=', eb.ref('accounts.balance')),
    )
    .execute();
  for (const a of drift) {
    problems.push({
      check: 'balance_equals_entries',
      id: a.id,
      message: `${a.kind} account ${a.id} has balance ${a.balance} but its entries sum to ${a.total}`,
    });
  }

  const negative = await trx
    .selectFrom('accounts')
    .select(['id', 'balance'])
    .where('floor_zero', '=', 1)
    .where('balance', '<', 0)
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  for (const a of negative)
    problems.push({ check: 'no_negative_wallet', id: a.id, message: `wallet ${a.id} has balance ${a.balance}` });

  const perDeveloper = await trx
    .selectFrom('accounts')
    .select(['developer_id', (eb) => eb.fn.sum<number>('balance').as('total')])
    .groupBy('developer_id')
    .having((eb) => eb(eb.fn.sum('balance'), '!=', 0))
    .execute();
  for (const d of perDeveloper) {
    if (dev === undefined || d.developer_id === dev) {
      problems.push({
        check: 'developer_balanced',
        id: d.developer_id,
        message: `developer ${d.developer_id}'s accounts sum to ${d.total}, not 0`,
      });
    }
  }
  const others = perDeveloper.filter((d) => dev !== undefined && d.developer_id !== dev).length;
  if (others > 0) {
    problems.push({
      check: 'sandbox_balanced',
      message: `${others} other developer${others === 1 ? "'s books do" : "s' books do"} not sum to zero in this sandbox`,
    });
  }
}

/**
 * Each wallet's transactions, in the order they were written: positive integer amounts, an
 * unbroken balance_before/after chain ending at the wallet's balance, and as many of each type as
 * its counters say (the totals that lists read). One wallet at a time, in chunks.
 */
export async function checkWallets(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  const wallets = await trx
    .selectFrom('wallets')
    .innerJoin('accounts', 'accounts.id', 'wallets.id')
    .select(['wallets.id', 'accounts.seq', 'accounts.balance'])
    .$if(dev !== undefined, (qb) => qb.where('wallets.developer_id', '=', dev!))
    .orderBy('wallets.seq')
    .execute();
  for (const wallet of wallets) {
    let previous = 0;
    const counted = { CREDIT: 0, DEBIT: 0 };
    const chunks = inChunks(
      (after, limit) =>
        trx
          .selectFrom('transactions')
          .select(['seq', 'id', 'type', 'amount', 'balance_before', 'balance_after'])
          .where('account_seq', '=', wallet.seq)
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(limit)
          .execute(),
      (t) => t.seq,
      0,
    );
    for await (const rows of chunks) {
      for (const t of rows) {
        counted[t.type]++;
        if (!Number.isSafeInteger(t.amount) || t.amount <= 0) {
          problems.push({
            check: 'positive_integer_amounts',
            id: t.id,
            message: `transaction ${t.id} has amount ${t.amount}`,
          });
        }
        if (t.balance_before !== previous) {
          problems.push({
            check: 'balance_chain',
            id: t.id,
            message: `transaction ${t.id} starts at ${t.balance_before}, but the wallet stood at ${previous}`,
          });
        }
        const expected = t.balance_before + (t.type === 'CREDIT' ? t.amount : -t.amount);
        if (t.balance_after !== expected) {
          problems.push({
            check: 'balance_chain',
            id: t.id,
            message: `transaction ${t.id} ends at ${t.balance_after}, expected ${expected}`,
          });
        }
        previous = t.balance_after;
      }
    }
    if (previous !== wallet.balance) {
      problems.push({
        check: 'balance_chain',
        id: wallet.id,
        message: `wallet ${wallet.id} has balance ${wallet.balance} but its last transaction ends at ${previous}`,
      });
    }
    const counters = await trx
      .selectFrom('transaction_counts')
      .select(['type', 'n'])
      .where('wallet_id', '=', wallet.id)
      .execute();
    const says = { CREDIT: 0, DEBIT: 0 };
    for (const c of counters) says[c.type] = c.n;
    for (const type of ['CREDIT', 'DEBIT'] as const) {
      if (says[type] !== counted[type]) {
        problems.push({
          check: 'transaction_counts',
          id: wallet.id,
          message: `wallet ${wallet.id} has ${counted[type]} ${type} transactions but its counter says ${says[type]}`,
        });
      }
    }
  }
}

/**
 * suspense_holding equals what the unresolved suspense items hold. Compared in SQL, in integers: a
 * system account may hold more than 2^53 kobo, where JavaScript numbers stop being exact.
 */
export async function checkSuspenseHolding(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  const unresolved = sql`select sum(s.amount) from suspense_items s where s.developer_id = accounts.developer_id and s.status in ('PENDING', 'FLAGGED')`;
  const held = sql<string>`coalesce((${unresolved}), 0)`;
  const wrong = await trx
    .selectFrom('accounts')
    .select([
      'developer_id',
      sql<string>`cast(balance as text)`.as('balance'),
      sql<string>`cast(${held} as text)`.as('expected'),
    ])
    .where('kind', '=', 'SUSPENSE_HOLDING')
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .where(sql<boolean>`balance != ${held}`)
    .execute();
  for (const h of wrong) {
    problems.push({
      check: 'suspense_holding',
      id: h.developer_id,
      message: `suspense_holding of developer ${h.developer_id} is ${h.balance} but unresolved items total ${h.expected}`,
    });
  }
}

/** A payout's DEBIT carries its status; its fee DEBIT is the NIP fee; a FAILED one has a reversal of amount + fee. */
export async function checkPayouts(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  const chunks = inChunks(
    (after, limit) =>
      trx
        .selectFrom('payouts')
        .innerJoin('transactions as payout', 'payout.id', 'payouts.transaction_id')
        .innerJoin('transactions as fee', 'fee.id', 'payouts.fee_transaction_id')
        .leftJoin('transactions as reversal', 'reversal.id', 'payouts.reversal_transaction_id')
        .select([
          'payouts.transaction_id',
          'payouts.status',
          'payouts.amount',
          'payouts.fee',
          'payout.status as payout_status',
          'payout.amount as payout_amount',
          'fee.amount as fee_amount',
          'reversal.amount as reversal_amount',
          'reversal.type as reversal_type',
        ])
        .where('payouts.transaction_id', '>', after)
        .$if(dev !== undefined, (qb) => qb.where('payouts.developer_id', '=', dev!))
        .orderBy('payouts.transaction_id')
        .limit(limit)
        .execute(),
    (p) => p.transaction_id,
    '',
  );
  for await (const rows of chunks) {
    for (const p of rows) {
      const id = p.transaction_id;
      if (p.payout_status !== p.status || p.payout_amount !== p.amount) {
        problems.push({
          check: 'payout_matches_transaction',
          id,
          message: `payout ${id} is ${p.status} ${p.amount} but its transaction is ${p.payout_status} ${p.payout_amount}`,
        });
      }
      if (p.fee_amount !== p.fee)
        problems.push({
          check: 'payout_fee',
          id,
          message: `payout ${id} charged ${p.fee_amount} for a fee of ${p.fee}`,
        });
      const reversed = p.reversal_type === 'CREDIT' && p.reversal_amount === p.amount + p.fee;
      if ((p.status === 'FAILED') !== reversed) {
        problems.push({
          check: 'payout_reversal',
          id,
          message: `payout ${id} is ${p.status} but its reversal is ${p.reversal_amount ?? 'missing'}`,
        });
      }
    }
  }
}
