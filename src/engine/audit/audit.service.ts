import { sql } from 'kysely';
import type { Trx } from '../db/database.js';

export interface AuditProblem {
  check: string;
  message: string;
  id?: string;
}

export interface AuditReport {
  ok: boolean;
  checked: Record<string, number>;
  problems: AuditProblem[];
}

const COUNTED = ['accounts', 'wallets', 'postings', 'entries', 'transactions', 'events', 'webhook_logs', 'suspense_items', 'payouts'] as const;

/**
 * Checks every money invariant of contract §4: balanced postings, balances equal to their
 * entries, no wallet below zero, unbroken balance_before/after chains, transactions matching their
 * entries, an event and a webhook delivery for every movement, and suspense_holding equal to the
 * unresolved suspense items.
 *
 * With `developerId` it checks that developer's books only (contract §8), and adds the one
 * sandbox-wide check, that every developer's books sum to zero, reported as counts with no other
 * developer's ids. Without it (tests, the crash test) it checks the whole database.
 * @example const report = await audit(db, developerId); if (!report.ok) console.log(report.problems);
 */
export async function audit(trx: Trx, developerId?: string): Promise<AuditReport> {
  const problems: AuditProblem[] = [];
  const checked: Record<string, number> = {};
  const dev = developerId;
  for (const table of COUNTED) {
    const row =
      table === 'entries'
        ? await trx
            .selectFrom('entries')
            .innerJoin('postings', 'postings.id', 'entries.posting_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .$if(dev !== undefined, (qb) => qb.where('postings.developer_id', '=', dev!))
            .executeTakeFirstOrThrow()
        : await trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
            .executeTakeFirstOrThrow();
    checked[table] = Number(row.n);
  }

  const unbalanced = await trx
    .selectFrom('postings')
    .leftJoin('entries', 'entries.posting_id', 'postings.id')
    .select(['postings.id', (eb) => eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`).as('total')])
    .select((eb) => eb.fn.count<number>('entries.id').as('legs'))
    .$if(dev !== undefined, (qb) => qb.where('postings.developer_id', '=', dev!))
    .groupBy('postings.id')
    .having((eb) => eb.or([eb(eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`), '!=', 0), eb(eb.fn.count('entries.id'), '<', 2)]))
    .execute();
  for (const p of unbalanced) {
    problems.push({ check: 'balanced_postings', id: p.id, message: `posting ${p.id} has ${p.legs} legs summing to ${p.total}, not 0` });
  }

  const drift = await trx
    .selectFrom('accounts')
    .leftJoin('entries', 'entries.account_id', 'accounts.id')
    .select(['accounts.id', 'accounts.kind', 'accounts.balance', (eb) => eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`).as('total')])
    .$if(dev !== undefined, (qb) => qb.where('accounts.developer_id', '=', dev!))
    .groupBy('accounts.id')
    .having((eb) => eb(eb.fn.coalesce(eb.fn.sum<number>('entries.amount'), sql<number>`0`), '!=', eb.ref('accounts.balance')))
    .execute();
  for (const a of drift) {
    problems.push({ check: 'balance_equals_entries', id: a.id, message: `${a.kind} account ${a.id} has balance ${a.balance} but its entries sum to ${a.total}` });
  }

  const negative = await trx
    .selectFrom('accounts')
    .select(['id', 'balance'])
    .where('floor_zero', '=', 1)
    .where('balance', '<', 0)
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  for (const a of negative) problems.push({ check: 'no_negative_wallet', id: a.id, message: `wallet ${a.id} has balance ${a.balance}` });

  const perDeveloper = await trx
    .selectFrom('accounts')
    .select(['developer_id', (eb) => eb.fn.sum<number>('balance').as('total')])
    .groupBy('developer_id')
    .having((eb) => eb(eb.fn.sum('balance'), '!=', 0))
    .execute();
  for (const d of perDeveloper) {
    if (dev === undefined || d.developer_id === dev) {
      problems.push({ check: 'developer_balanced', id: d.developer_id, message: `developer ${d.developer_id}'s accounts sum to ${d.total}, not 0` });
    }
  }
  const others = perDeveloper.filter((d) => dev !== undefined && d.developer_id !== dev).length;
  if (others > 0) {
    problems.push({ check: 'sandbox_balanced', message: `${others} other developer${others === 1 ? "'s books do" : "s' books do"} not sum to zero in this sandbox` });
  }

  await checkChains(trx, problems, dev);
  await checkTransactionsMatchEntries(trx, problems, dev);
  await checkOutbox(trx, problems, dev);
  await checkSuspenseHolding(trx, problems, dev);
  await checkPayouts(trx, problems, dev);
  await checkCounts(trx, problems, dev);
  return { ok: problems.length === 0, checked, problems };
}

async function checkChains(trx: Trx, problems: AuditProblem[], dev: string | undefined): Promise<void> {
  const wallets = await trx
    .selectFrom('wallets')
    .innerJoin('accounts', 'accounts.id', 'wallets.id')
    .select(['wallets.id', 'accounts.balance'])
    .$if(dev !== undefined, (qb) => qb.where('wallets.developer_id', '=', dev!))
    .execute();
  const balances = new Map(wallets.map((w) => [w.id, w.balance]));
  const rows = await trx
    .selectFrom('transactions')
    .select(['id', 'wallet_id', 'type', 'amount', 'balance_before', 'balance_after'])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .orderBy('wallet_id')
    .orderBy('seq')
    .execute();
  const last = new Map<string, number>();
  for (const t of rows) {
    const previous = last.get(t.wallet_id) ?? 0;
    if (!Number.isSafeInteger(t.amount) || t.amount <= 0) {
      problems.push({ check: 'positive_integer_amounts', id: t.id, message: `transaction ${t.id} has amount ${t.amount}` });
    }
    if (t.balance_before !== previous) {
      problems.push({ check: 'balance_chain', id: t.id, message: `transaction ${t.id} starts at ${t.balance_before}, but the wallet stood at ${previous}` });
    }
    const expected = t.balance_before + (t.type === 'CREDIT' ? t.amount : -t.amount);
    if (t.balance_after !== expected) {
      problems.push({ check: 'balance_chain', id: t.id, message: `transaction ${t.id} ends at ${t.balance_after}, expected ${expected}` });
    }
    last.set(t.wallet_id, t.balance_after);
  }
  for (const [walletId, balance] of balances) {
    const final = last.get(walletId) ?? 0;
    if (final !== balance) {
      problems.push({ check: 'balance_chain', id: walletId, message: `wallet ${walletId} has balance ${balance} but its last transaction ends at ${final}` });
    }
  }
}

async function checkTransactionsMatchEntries(trx: Trx, problems: AuditProblem[], dev: string | undefined): Promise<void> {
  const rows = await trx
    .selectFrom('transactions')
    .leftJoin('entries', 'entries.id', 'transactions.entry_id')
    .select(['transactions.id', 'transactions.wallet_id', 'transactions.type', 'transactions.amount', 'entries.account_id', 'entries.amount as entry_amount'])
    .$if(dev !== undefined, (qb) => qb.where('transactions.developer_id', '=', dev!))
    .execute();
  for (const t of rows) {
    const signed = t.type === 'CREDIT' ? t.amount : -t.amount;
    if (t.account_id !== t.wallet_id || t.entry_amount !== signed) {
      problems.push({ check: 'transaction_matches_entry', id: t.id, message: `transaction ${t.id} (${t.type} ${t.amount}) does not match its ledger entry` });
    }
  }
}

async function checkOutbox(trx: Trx, problems: AuditProblem[], dev: string | undefined): Promise<void> {
  const events = await trx
    .selectFrom('events')
    .select(['id', 'type', 'payload'])
    .where('type', 'in', ['ledger.credit', 'ledger.debit'])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  const announced = new Set(events.map((e) => (JSON.parse(e.payload) as { data: { transaction_id?: string } }).data.transaction_id));
  const transactions = await trx
    .selectFrom('transactions')
    .select(['id', 'type'])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  for (const t of transactions) {
    if (!announced.has(t.id)) {
      problems.push({ check: 'event_for_movement', id: t.id, message: `transaction ${t.id} has no ledger.${t.type.toLowerCase()} event` });
    }
  }
  const undelivered = await trx
    .selectFrom('events')
    .leftJoin('webhook_logs', 'webhook_logs.event_id', 'events.id')
    .select(['events.id', 'events.type'])
    .where('webhook_logs.id', 'is', null)
    .$if(dev !== undefined, (qb) => qb.where('events.developer_id', '=', dev!))
    .execute();
  for (const e of undelivered) {
    problems.push({ check: 'delivery_for_event', id: e.id, message: `event ${e.id} (${e.type}) has no webhook delivery row` });
  }
}

async function checkSuspenseHolding(trx: Trx, problems: AuditProblem[], dev: string | undefined): Promise<void> {
  const holdings = await trx
    .selectFrom('accounts')
    .select(['developer_id', 'balance'])
    .where('kind', '=', 'SUSPENSE_HOLDING')
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  const held = await trx
    .selectFrom('suspense_items')
    .select(['developer_id', (eb) => eb.fn.sum<number>('amount').as('total')])
    .where('status', 'in', ['PENDING', 'FLAGGED'])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .groupBy('developer_id')
    .execute();
  const totals = new Map(held.map((h) => [h.developer_id, Number(h.total)]));
  for (const h of holdings) {
    const expected = totals.get(h.developer_id) ?? 0;
    if (h.balance !== expected) {
      problems.push({ check: 'suspense_holding', id: h.developer_id, message: `suspense_holding of developer ${h.developer_id} is ${h.balance} but unresolved items total ${expected}` });
    }
  }
}

/** A payout's DEBIT carries its status; its fee DEBIT is the NIP fee; a FAILED one has a reversal of amount + fee. */
async function checkPayouts(trx: Trx, problems: AuditProblem[], dev: string | undefined): Promise<void> {
  const rows = await trx
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
    .$if(dev !== undefined, (qb) => qb.where('payouts.developer_id', '=', dev!))
    .execute();
  for (const p of rows) {
    const id = p.transaction_id;
    if (p.payout_status !== p.status || p.payout_amount !== p.amount) {
      problems.push({ check: 'payout_matches_transaction', id, message: `payout ${id} is ${p.status} ${p.amount} but its transaction is ${p.payout_status} ${p.payout_amount}` });
    }
    if (p.fee_amount !== p.fee) problems.push({ check: 'payout_fee', id, message: `payout ${id} charged ${p.fee_amount} for a fee of ${p.fee}` });
    const reversed = p.reversal_type === 'CREDIT' && p.reversal_amount === p.amount + p.fee;
    if ((p.status === 'FAILED') !== reversed) {
      problems.push({ check: 'payout_reversal', id, message: `payout ${id} is ${p.status} but its reversal is ${p.reversal_amount ?? 'missing'}` });
    }
  }
}

/** One group of rows as counted by the audit, and as its counter says. */
interface Counted {
  key: string;
  n: number;
  /** What the rows are, for the message: "wallet … has 3 DEBIT transactions". */
  what: string;
  id?: string;
}

/** Every group's counter equals its rows, and no counter counts rows that are not there. */
function compareCounters(check: string, problems: AuditProblem[], actual: Counted[], stored: Map<string, number>): void {
  for (const row of actual) {
    const says = stored.get(row.key) ?? 0;
    if (says !== row.n) problems.push({ check, ...(row.id ? { id: row.id } : {}), message: `${row.what}: ${row.n}, but the counter says ${says}` });
    stored.delete(row.key);
  }
  for (const [key, n] of stored) if (n !== 0) problems.push({ check, message: `counter ${key} says ${n} but there are none` });
}

/** The counters that list totals read (transactions per wallet and type, webhook logs, receipts) agree with the rows. */
async function checkCounts(trx: Trx, problems: AuditProblem[], dev: string | undefined): Promise<void> {
  const transactions = await trx
    .selectFrom('transactions')
    .select(['wallet_id', 'type', (eb) => eb.fn.countAll<number>().as('n')])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .groupBy(['wallet_id', 'type'])
    .execute();
  const transactionCounters = await trx
    .selectFrom('transaction_counts')
    .innerJoin('wallets', 'wallets.id', 'transaction_counts.wallet_id')
    .select(['transaction_counts.wallet_id', 'transaction_counts.type', 'transaction_counts.n'])
    .$if(dev !== undefined, (qb) => qb.where('wallets.developer_id', '=', dev!))
    .execute();
  compareCounters(
    'transaction_counts',
    problems,
    transactions.map((r) => ({ key: `${r.wallet_id}:${r.type}`, n: Number(r.n), id: r.wallet_id, what: `wallet ${r.wallet_id}'s ${r.type} transactions` })),
    new Map(transactionCounters.map((r) => [`${r.wallet_id}:${r.type}`, r.n])),
  );

  const logs = await trx
    .selectFrom('webhook_logs')
    .select(['developer_id', 'status', 'event_type', (eb) => eb.fn.countAll<number>().as('n')])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .groupBy(['developer_id', 'status', 'event_type'])
    .execute();
  const logCounters = await trx.selectFrom('webhook_log_counts').selectAll().$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!)).execute();
  compareCounters(
    'webhook_log_counts',
    problems,
    logs.map((r) => ({ key: `${r.developer_id}:${r.status}:${r.event_type}`, n: Number(r.n), what: `${r.status} ${r.event_type} webhook logs` })),
    new Map(logCounters.map((r) => [`${r.developer_id}:${r.status}:${r.event_type}`, r.n])),
  );

  const received = await trx
    .selectFrom('receiver_events')
    .select(['developer_id', (eb) => eb.fn.countAll<number>().as('n')])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .groupBy('developer_id')
    .execute();
  const receivedCounters = await trx.selectFrom('receiver_event_counts').selectAll().$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!)).execute();
  compareCounters(
    'receiver_event_counts',
    problems,
    received.map((r) => ({ key: r.developer_id, n: Number(r.n), what: 'deliveries the built-in receiver kept' })),
    new Map(receivedCounters.map((r) => [r.developer_id, r.n])),
  );
}
