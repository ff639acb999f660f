import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/engine/db/database.js';
import { dueLogs, listWebhookLogs } from '../../src/engine/events/webhooks.service.js';
import { listReceived } from '../../src/engine/events/receiver-events.repository.js';
import { listDeveloperTransactions, listWalletTransactions } from '../../src/engine/ledger/transactions.repository.js';
import { buildReport } from '../../src/engine/report/report.service.js';
import { createTestSandbox, createWallet, type TestSandbox } from '../helpers/sandbox.js';

/** Lists that a tail, a dashboard or a script reads over and over, and what they must never do at scale. */
let dir: string;
let t: TestSandbox;
let wallet: { id: string; account_number: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-lists-'));
  t = await createTestSandbox({ dbPath: join(dir, 'lists.db'), listen: true });
  wallet = await createWallet(t, 1_000_000);
  const other = await createWallet(t);
  // 45 transfers (90 transactions, 91 deliveries with the funding credit), half of them delivered.
  for (let i = 0; i < 45; i++)
    await t.call('POST', `/v1/wallets/${wallet.id}/transfer`, {
      destination_account_number: other.account_number,
      amount: 100 + i,
    });
  await t.app.scheduler.runDue(t.developerId);
  for (let i = 0; i < 3; i++)
    await t.call('POST', `/v1/wallets/${wallet.id}/transfer`, {
      destination_account_number: other.account_number,
      amount: 1,
    });
}, 60_000);

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the hot lists use indexes in their order and filters', () => {
  /** Every SELECT the list functions run, planned by SQLite on this database. */
  async function plans(run: (db: Kysely<Database>) => Promise<unknown>): Promise<string[]> {
    const raw = new SQLite(join(dir, 'lists.db'), { readonly: true });
    const queries: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: raw }),
      log: (event) => void queries.push(event.query),
    });
    try {
      await run(db);
      return queries
        .filter((q) => /^\s*select/i.test(q.sql))
        .map((q) => {
          const plan = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[]));
          return `${q.sql}\n  → ${(plan as { detail: string }[]).map((r) => r.detail).join(' | ')}`;
        });
    } finally {
      await db.destroy();
    }
  }

  const page = (page: number, order: 'asc' | 'desc' = 'asc') => ({ page, limit: 20, order });
  const noScanNoSort = (planned: string[], walkInOrder?: RegExp) => {
    expect(planned.length).toBeGreaterThan(0);
    for (const plan of planned) {
      const steps = plan.split('→ ')[1]!;
      expect(walkInOrder ? steps.replace(walkInOrder, '') : steps, plan).not.toMatch(/\bSCAN\b/);
      expect(steps, plan).not.toMatch(/TEMP B-TREE/);
    }
  };

  it('webhook logs: unfiltered, by each status, by event type, by both, either order, first and last page', async () => {
    noScanNoSort(
      await plans(async (db) => {
        for (const order of ['asc', 'desc'] as const) {
          for (const at of [1, 5]) {
            await listWebhookLogs(db, t.developerId, page(at, order));
            for (const status of ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'] as const)
              await listWebhookLogs(db, t.developerId, { ...page(at, order), status: [status] });
            await listWebhookLogs(db, t.developerId, { ...page(at, order), event_type: 'ledger.debit' });
            await listWebhookLogs(db, t.developerId, {
              ...page(at, order),
              status: ['PENDING'],
              event_type: 'ledger.credit',
            });
          }
        }
      }),
    );
  });

  it("the report's sections: each developer's rows of the period, through a time index (grouping sorts only the period's rows)", async () => {
    const planned = await plans((db) =>
      buildReport(
        db,
        t.developerId,
        { since: Date.parse('2026-11-21T00:00:00Z'), until: Date.parse('2026-11-22T00:00:00Z') },
        new Date(),
      ),
    );
    expect(planned).toHaveLength(6);
    // No table is scanned. `SCAN f` reads the failing endpoints' grouped rows (one per endpoint URL),
    // which the period's rows were grouped into through the time index.
    for (const plan of planned) expect(plan.split('→ ')[1]!.replace(/\bSCAN f\b/, ''), plan).not.toMatch(/\bSCAN\b/);
  });

  it('what the dispatcher reads: due deliveries, oldest first', async () => {
    noScanNoSort(await plans((db) => dueLogs(db, t.developerId, new Date('2030-01-01'), 8, ['x'])));
  });

  it('receiver events and wallet transactions, first and last page, either order, with and without a type', async () => {
    noScanNoSort(
      await plans(async (db) => {
        for (const order of ['asc', 'desc'] as const) {
          for (const at of [1, 5]) {
            await listReceived(db, t.developerId, page(at, order));
            await listWalletTransactions(db, wallet.id, page(at, order));
            await listWalletTransactions(db, wallet.id, { ...page(at, order), type: 'DEBIT' });
          }
        }
      }),
    );
  });

  it("every wallet's transactions of a developer, and either list bounded by time, first and last page, either order", async () => {
    const since = new Date('2026-01-01T00:00:00Z');
    const until = new Date('2030-01-01T00:00:00Z');
    noScanNoSort(
      await plans(async (db) => {
        for (const order of ['asc', 'desc'] as const) {
          for (const at of [1, 5]) {
            await listDeveloperTransactions(db, t.developerId, page(at, order));
            await listDeveloperTransactions(db, t.developerId, { ...page(at, order), type: 'CREDIT' });
            await listDeveloperTransactions(db, t.developerId, { ...page(at, order), since, until });
            await listWalletTransactions(db, wallet.id, { ...page(at, order), since, until, status: ['SETTLED'] });
          }
        }
      }),
      // Every wallet's rows in time order, unbounded: the index is walked from one end, a page at a time.
      /SCAN transactions USING INDEX transactions_time\b/,
    );
  });
});

describe("a developer with few of the sandbox's transactions", () => {
  it("lists every wallet of its own by gathering its rows, not by walking everyone's", async () => {
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'FEW' })).body.data;
    const theirs = (
      await t.call(
        'POST',
        '/v1/wallets',
        { customer_reference: 'few', first_name: 'Few', last_name: 'Rows', email: 'f@example.com' },
        { key: other.api_key },
      )
    ).body.data;
    for (const amount of [1_000, 2_000])
      await t.call(
        'POST',
        '/sandbox/inbound-transfers',
        { account_number: theirs.account_number, amount },
        { key: other.api_key },
      );
    const listed = (await t.call('GET', '/v1/transactions?order=desc', undefined, { key: other.api_key })).body.data;
    expect([listed.total, listed.items.map((item: { amount: number }) => item.amount)]).toEqual([2, [2_000, 1_000]]);
    const raw = new SQLite(join(dir, 'lists.db'), { readonly: true });
    const queries: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: raw }),
      log: (event) => void queries.push(event.query),
    });
    try {
      await listDeveloperTransactions(db, other.developer_id, { page: 1, limit: 20, order: 'asc' });
      const listing = queries.find((q) => /order by "transactions"."created_at"/.test(q.sql))!;
      const plan = (
        raw.prepare(`EXPLAIN QUERY PLAN ${listing.sql}`).all(...(listing.parameters as unknown[])) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
      expect(plan).toMatch(/SEARCH transactions USING INDEX transactions_wallet/);
      expect(plan).not.toMatch(/SCAN transactions/);
    } finally {
      await db.destroy();
    }
  });
});

describe('a page read from the far end is the same page', () => {
  /** Every page of a list, then the same rows in one page of 100: they must be the same rows in the same order. */
  async function pagesAgree(path: string, total: number) {
    for (const order of ['asc', 'desc']) {
      const whole = (await t.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&order=${order}`)).body.data;
      expect(whole.total).toBe(total);
      const paged: unknown[] = [];
      for (let at = 1; at <= Math.ceil(total / 7) + 1; at++) {
        const one = (await t.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=7&page=${at}&order=${order}`))
          .body.data;
        expect(one.total).toBe(total);
        paged.push(...one.items);
      }
      expect(paged).toEqual(whole.items);
    }
  }

  it('webhook logs, filtered and not', async () => {
    await pagesAgree('/v1/webhook-logs', 97);
    await pagesAgree('/v1/webhook-logs?status=DELIVERED', 91);
    await pagesAgree('/v1/webhook-logs?status=PENDING&event_type=ledger.debit', 3);
  });

  it('receiver events and wallet transactions', async () => {
    await pagesAgree('/sandbox/receiver/events', 91);
    await pagesAgree(`/v1/wallets/${wallet.id}/transactions`, 49);
    await pagesAgree(`/v1/wallets/${wallet.id}/transactions?type=DEBIT`, 48);
    await pagesAgree('/v1/transactions', 97);
    await pagesAgree('/v1/transactions?type=DEBIT&amount_max=120', 24);
    await pagesAgree('/v1/webhook-logs?status=PENDING,FAILED', 6);
  });
});

describe('the counters that list totals read', () => {
  it('are checked by the audit: each one that drifts from its rows is a problem', async () => {
    const drift = [
      sql`UPDATE webhook_log_counts SET n = n + 1 WHERE status = 'DELIVERED' AND event_type = 'ledger.credit'`,
      sql`UPDATE receiver_event_counts SET n = n - 1`,
      sql`UPDATE transaction_counts SET n = n + 2 WHERE type = 'DEBIT'`,
    ];
    const undo = [
      sql`UPDATE webhook_log_counts SET n = n - 1 WHERE status = 'DELIVERED' AND event_type = 'ledger.credit'`,
      sql`UPDATE receiver_event_counts SET n = n + 1`,
      sql`UPDATE transaction_counts SET n = n - 2 WHERE type = 'DEBIT'`,
    ];
    try {
      for (const statement of drift) await statement.execute(t.sandbox.db);
      const report = (await t.call('GET', '/sandbox/audit')).body.data;
      expect(report.ok).toBe(false);
      expect(report.problems.map((p: { check: string }) => p.check).sort()).toEqual([
        'receiver_event_counts',
        'transaction_counts',
        'webhook_log_counts',
      ]);
      expect(report.problems.find((p: { check: string }) => p.check === 'webhook_log_counts').message).toBe(
        'DELIVERED ledger.credit webhook logs: 46, but the counter says 47',
      );
    } finally {
      for (const statement of undo) await statement.execute(t.sandbox.db);
    }
    expect((await t.call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
  });
});
