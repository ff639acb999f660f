import { sql } from 'kysely';
import { developerSeq, typeCode } from '../../src/engine/events/stored.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';

/**
 * Adds `transfers` internal transfers of 1 kobo from wallet `from` to wallet `to` straight in SQL,
 * with everything the engine writes for each (a posting, two entries, two transactions on unbroken
 * balance chains, their ledger events and DELIVERED webhook logs, the counters), so the books still
 * pass the audit. For tests that need a large ledger fast: the engine makes these rows at a few
 * thousand a second, this at a few hundred thousand. `from` must hold at least `transfers` kobo.
 * @example await bulkTransfers(t.sandbox, t.developerId, a, b, 100_000); // 200,000 transactions
 */
export async function bulkTransfers(
  sandbox: Sandbox,
  developerId: string,
  from: { id: string; account_number: string },
  to: { id: string; account_number: string },
  transfers: number,
): Promise<void> {
  await sandbox.db.transaction().execute(async (trx) => {
    const start = await trx
      .selectFrom('accounts')
      .select(['balance', 'seq'])
      .where('id', '=', from.id)
      .executeTakeFirstOrThrow();
    const startTo = await trx
      .selectFrom('accounts')
      .select(['balance', 'seq'])
      .where('id', '=', to.id)
      .executeTakeFirstOrThrow();
    const tag = (
      await trx
        .selectFrom('postings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    // Postings and entries are keyed by seq: transfer i's posting is p + i, its entries e + 2i - 1 (debit) and e + 2i (credit).
    const last = async (table: 'postings' | 'entries') =>
      Number(
        (await sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM ${sql.table(table)}`.execute(trx)).rows[0]
          ?.seq ?? 0,
      );
    const p = await last('postings');
    const e = await last('entries');
    const id = (kind: string) => sql<string>`printf(${sql.lit(`%08x-0000-7000-8${kind}-%012x`)}, ${tag}, i)`;
    // Events' and logs' ids as stored.ts stores them: their 16 bytes.
    const bytes = (kind: string) => sql`unhex(replace(${id(kind)}, '-', ''))`;
    await sql`CREATE TEMP TABLE bulk_n AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${transfers}) SELECT i,
      strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-22', '+' || i || ' seconds') AS at, (unixepoch('2026-11-22') + i) * 1000 AS at_ms FROM n`.execute(
      trx,
    );
    // Times are stored as milliseconds (migrations 0019b and 0020).
    await sql`INSERT INTO postings (seq, developer_id, kind, created_at) SELECT ${p} + i, ${developerId}, 'INTERNAL_TRANSFER', at_ms FROM bulk_n`.execute(
      trx,
    );
    await sql`INSERT INTO entries (seq, posting_seq, account_seq, amount)
      SELECT ${e} + 2 * i - 1, ${p} + i, ${start.seq}, -1 FROM bulk_n UNION ALL SELECT ${e} + 2 * i, ${p} + i, ${startTo.seq}, 1 FROM bulk_n`.execute(
      trx,
    );
    const leg = (
      kind: string,
      entry: number,
      account: number,
      type: string,
      before: ReturnType<typeof sql>,
      after: ReturnType<typeof sql>,
    ) => sql`
      SELECT ${id(kind)}, ${account}, ${p} + i, ${e} + 2 * i - ${entry}, ${type}, 1, ${before}, ${after}, 'NGN', 'SETTLED',
        printf('%030d', i), 'BULK SENDER', ${from.account_number}, 'Bulk transfer', NULL,
        ${to.account_number}, '035', 'BULK RECEIVER', 0, NULL, at_ms, NULL FROM bulk_n`;
    const columns = sql`(id, account_seq, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status, provider_reference,
      sender_name, sender_account, raw_narration, service_intelligence, destination_account_number, destination_bank_code,
      destination_account_name, fee, agent_id, created_at, updated_at)`;
    const debits = leg('004', 1, start.seq, 'DEBIT', sql`${start.balance} - i + 1`, sql`${start.balance} - i`);
    const credits = leg('005', 0, startTo.seq, 'CREDIT', sql`${startTo.balance} + i - 1`, sql`${startTo.balance} + i`);
    await sql`INSERT INTO transactions ${columns} ${debits}`.execute(trx);
    await sql`INSERT INTO transactions ${columns} ${credits}`.execute(trx);
    // Events and logs name the developer by its number, the type by its code, times in epoch ms (events/stored.ts).
    const developer = await developerSeq(trx, developerId);
    const event = (kind: string, tx: string, type: string, wallet: string) => sql`
      SELECT ${bytes(kind)}, ${developer}, ${typeCode(type)},
        '{"event_id":"' || ${id(kind)} || '","event_type":"' || ${type} ||
          '","api_version":"2026-11-01","created_at":"' || at ||
          '","data":{"transaction_id":"' || ${id(tx)} || '","wallet_id":"' || ${wallet} || '","amount":1}}',
        at_ms FROM bulk_n`;
    await sql`INSERT INTO events (id, developer_seq, type_code, payload, created_at_ms)
      ${event('006', '004', 'ledger.debit', from.id)} UNION ALL ${event('007', '005', 'ledger.credit', to.id)}`.execute(
      trx,
    );
    const log = (kind: string, eventKind: string, type: string) => sql`
      SELECT ${bytes(kind)}, ${developer}, (SELECT seq FROM events WHERE id = ${bytes(eventKind)}), ${typeCode(type)},
        'DELIVERED', 200, '{"received":true}', 1, NULL, at_ms FROM bulk_n`;
    await sql`INSERT INTO webhook_logs (id, developer_seq, event_seq, event_type_code, status, http_status_code, response_body,
        attempt_count, next_retry_at_ms, delivered_at_ms)
      ${log('008', '006', 'ledger.debit')} UNION ALL ${log('009', '007', 'ledger.credit')}`.execute(trx);
    await sql`DROP TABLE bulk_n`.execute(trx);

    await trx
      .updateTable('accounts')
      .set({ balance: sql`balance - ${transfers}` })
      .where('id', '=', from.id)
      .execute();
    await trx
      .updateTable('accounts')
      .set({ balance: sql`balance + ${transfers}` })
      .where('id', '=', to.id)
      .execute();
    const count = (wallet: string, type: 'CREDIT' | 'DEBIT') =>
      trx
        .insertInto('transaction_counts')
        .values({ wallet_id: wallet, type, n: transfers })
        .onConflict((oc) => oc.columns(['wallet_id', 'type']).doUpdateSet({ n: sql`n + ${transfers}` }))
        .execute();
    await count(from.id, 'DEBIT');
    await count(to.id, 'CREDIT');
    for (const type of ['ledger.debit', 'ledger.credit']) {
      await trx
        .insertInto('webhook_log_counts')
        .values({ developer_id: developerId, status: 'DELIVERED', event_type: type, n: transfers })
        .onConflict((oc) =>
          oc.columns(['developer_id', 'status', 'event_type']).doUpdateSet({ n: sql`n + ${transfers}` }),
        )
        .execute();
    }
  });
}
