import type { Db, Trx } from '../db/database.js';
import { readApart } from '../db/backend.js';
import { developerSeq } from '../events/stored.js';
import { checkBalances, checkPayouts, checkPostings, checkSuspenseHolding, checkWallets } from './ledger-checks.js';
import { checkDeliveryCounts, checkOutbox } from './outbox-checks.js';
import { type AuditProblem, Problems } from './scan.js';

export type { AuditProblem } from './scan.js';

export interface AuditReport {
  ok: boolean;
  checked: Record<string, number>;
  problems: AuditProblem[];
}

const COUNTED = [
  'accounts',
  'wallets',
  'postings',
  'entries',
  'transactions',
  'events',
  'webhook_logs',
  'suspense_items',
  'payouts',
] as const;

/**
 * Checks every money invariant (decisions: Money and balances): balanced postings, balances equal to
 * their entries, no wallet below zero, unbroken balance_before/after chains, transactions matching
 * their entries, an event and a webhook delivery for every movement, suspense_holding equal to the
 * unresolved suspense items, and the counters that list totals read.
 *
 * With `developerId` it checks that developer's books only (decisions: Tenancy, clocks and reset),
 * and adds the one sandbox-wide check, that every developer's books sum to zero, reported as counts
 * with no other developer's ids. Without it (tests, the crash test) it checks the whole database.
 *
 * Its memory does not grow with the ledger: large tables are read in chunks, and at most 1,000
 * problems are listed (then one line counts the rest). Run it in one read transaction for one
 * consistent state; the running sandbox runs it on a worker thread (`auditOffThread`).
 * @example const report = await audit(db, developerId); if (!report.ok) console.log(report.problems);
 */
export async function audit(trx: Trx, developerId?: string): Promise<AuditReport> {
  const problems = new Problems();
  const checked: Record<string, number> = {};
  const dev = developerId;
  // Events and delivery logs name their developer by its number (events/stored.ts).
  const devSeq = dev === undefined ? undefined : await developerSeq(trx, dev);
  for (const table of COUNTED) {
    const row =
      table === 'entries'
        ? await trx
            .selectFrom('entries')
            .innerJoin('postings', 'postings.seq', 'entries.posting_seq')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .$if(dev !== undefined, (qb) => qb.where('postings.developer_id', '=', dev!))
            .executeTakeFirstOrThrow()
        : table === 'events' || table === 'webhook_logs'
          ? await trx
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .$if(devSeq !== undefined, (qb) => qb.where('developer_seq', '=', devSeq!))
              .executeTakeFirstOrThrow()
          : table === 'transactions' && dev !== undefined
            ? await trx
                .selectFrom('transactions')
                .innerJoin('accounts', 'accounts.seq', 'transactions.account_seq')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('accounts.developer_id', '=', dev)
                .executeTakeFirstOrThrow()
            : await trx
                .selectFrom(table as Exclude<(typeof COUNTED)[number], 'transactions' | 'events' | 'webhook_logs'>)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
                .executeTakeFirstOrThrow();
    checked[table] = Number(row.n);
  }

  await checkPostings(trx, problems, dev);
  await checkBalances(trx, problems, dev);
  await checkWallets(trx, problems, dev);
  await checkOutbox(trx, problems, dev);
  await checkSuspenseHolding(trx, problems, dev);
  await checkPayouts(trx, problems, dev);
  await checkDeliveryCounts(trx, problems, dev);
  return { ok: !problems.any, checked, problems: problems.report() };
}

/**
 * The audit of a running sandbox: on a worker thread with its own connection (see db/backend.ts `readApart`),
 * so an audit of a million transactions leaves every request answering. Same report as `audit`.
 * @example const report = await auditOffThread(sandbox.db, developerId);
 */
export function auditOffThread(db: Db, developerId?: string): Promise<AuditReport> {
  return readApart(db, { module: 'engine/audit/audit.service', name: 'audit', run: audit }, developerId);
}
