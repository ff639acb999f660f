import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Trx } from '../db/database.js';
import { developerSeq, idText, typeCode, typeName } from '../events/stored.js';
import { inChunks, pairUp, type Problems } from './scan.js';

// The outbox checks of the audit (decisions: Money and balances; Webhooks): every movement has its
// event, every event its delivery, and the counters that list totals read agree with the rows.

/** Where a ledger event's payload names its transaction (emitLedgerEvent writes `data` with it first). */
const TRANSACTION_ID_AT = '"data":{"transaction_id":"';

/** The transaction a ledger event announces, read from its payload without parsing all of it. */
export function announcedTransaction(payload: string): string | undefined {
  const at = payload.indexOf(TRANSACTION_ID_AT);
  if (at >= 0) return payload.slice(at + TRANSACTION_ID_AT.length, payload.indexOf('"', at + TRANSACTION_ID_AT.length));
  return (JSON.parse(payload) as { data?: { transaction_id?: string } }).data?.transaction_id;
}

/** The transaction an event whose payload is built from it announces, if it is one that event can announce. */
function builtFrom(e: {
  type_code: number;
  developer_id: string | null;
  announced_id: string | null;
  announced_developer: string | null;
  announced_type: string | null;
}): string | undefined {
  const type = typeName(e.type_code) === 'ledger.credit' ? 'CREDIT' : 'DEBIT';
  return e.announced_id !== null && e.announced_developer === e.developer_id && e.announced_type === type
    ? e.announced_id
    : undefined;
}

/**
 * Every wallet transaction is on its wallet with the signed amount of its ledger entry and has its
 * ledger.credit / ledger.debit event, and every event its webhook delivery row. Events and
 * deliveries are written in the same database transaction as what they announce, so the two sides
 * are read side by side, in the order they were written, in chunks: one pass over each table.
 */
export async function checkOutbox(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  // Events and delivery logs name their developer by its number (events/stored.ts).
  const devSeq = dev === undefined ? undefined : await developerSeq(trx, dev);
  /**
   * The developer's rows (every row without one) of a query on one table, in seq order, in chunks;
   * `owner` is the column that names the developer: by number (developer_seq) or by id.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const bySeq = <O extends { seq: number }>(
    table: string,
    query: SelectQueryBuilder<Database, any, O>,
    owner = `${table}.developer_seq`,
  ) =>
    inChunks(
      (after, limit) =>
        query
          .where(sql.ref(`${table}.seq`), '>', after)
          .$if(dev !== undefined, (qb) =>
            qb.where(sql.ref(owner), '=', owner.endsWith('.developer_seq') ? devSeq! : dev!),
          )
          .orderBy(sql.ref(`${table}.seq`))
          .limit(limit)
          .execute(),
      (row) => row.seq,
      0,
    );

  async function* matched() {
    const chunks = bySeq(
      'transactions',
      trx
        .selectFrom('transactions')
        .leftJoin('accounts as wallet', 'wallet.seq', 'transactions.account_seq')
        .leftJoin('entries', 'entries.seq', 'transactions.entry_seq')
        .select([
          'transactions.seq',
          'transactions.id',
          'transactions.type',
          'transactions.amount',
          'transactions.account_seq',
          'wallet.kind',
          'entries.account_seq as entry_account_seq',
          'entries.amount as entry_amount',
        ]),
      'wallet.developer_id',
    );
    for await (const rows of chunks) {
      for (const t of rows) {
        // Its account is a wallet's (the key alone cannot say so) and its entry's.
        if (
          t.kind !== 'WALLET' ||
          t.entry_account_seq !== t.account_seq ||
          t.entry_amount !== (t.type === 'CREDIT' ? t.amount : -t.amount)
        ) {
          problems.push({
            check: 'transaction_matches_entry',
            id: t.id,
            message: `transaction ${t.id} (${t.type} ${t.amount}) does not match its ledger entry`,
          });
        }
      }
      yield rows;
    }
  }
  await pairUp(
    matched(),
    (t) => t.id,
    bySeq(
      'events',
      trx
        .selectFrom('events')
        .leftJoin('transactions as announced', 'announced.seq', 'events.transaction_seq')
        .leftJoin('accounts as announced_account', 'announced_account.seq', 'announced.account_seq')
        .leftJoin('developers', 'developers.seq', 'events.developer_seq')
        .select([
          'events.seq',
          'events.type_code',
          'events.payload',
          'developers.id as developer_id',
          'announced.id as announced_id',
          'announced_account.developer_id as announced_developer',
          'announced.type as announced_type',
        ])
        .where('events.type_code', 'in', [typeCode('ledger.credit'), typeCode('ledger.debit')]),
    ),
    // A stored payload names its transaction; one built from its transaction (payload '') names
    // the transaction at transaction_seq, which must be the same developer's and of the event's type.
    (e) => (e.payload === '' ? builtFrom(e) : announcedTransaction(e.payload)),
    (t) =>
      problems.push({
        check: 'event_for_movement',
        id: t.id,
        message: `transaction ${t.id} has no ledger.${t.type.toLowerCase()} event`,
      }),
  );
  await pairUp(
    bySeq('events', trx.selectFrom('events').select(['seq', 'id', 'type_code'])),
    (e) => String(e.seq),
    bySeq('webhook_logs', trx.selectFrom('webhook_logs').select(['seq', 'event_seq'])),
    (l) => String(l.event_seq),
    (e) =>
      problems.push({
        check: 'delivery_for_event',
        id: idText(e.id),
        message: `event ${idText(e.id)} (${typeName(e.type_code)}) has no webhook delivery row`,
      }),
  );
}

/** One group of rows as counted by the audit, and as its counter says. */
interface Counted {
  key: string;
  n: number;
  /** What the rows are, for the message. */
  what: string;
}

/** Every group's counter equals its rows, and no counter counts rows that are not there. */
function compareCounters(check: string, problems: Problems, actual: Counted[], stored: Map<string, number>): void {
  for (const row of actual) {
    const says = stored.get(row.key) ?? 0;
    if (says !== row.n) problems.push({ check, message: `${row.what}: ${row.n}, but the counter says ${says}` });
    stored.delete(row.key);
  }
  for (const [key, n] of stored)
    if (n !== 0) problems.push({ check, message: `counter ${key} says ${n} but there are none` });
}

/** The counters of webhook logs (per status and event type) and of the receiver's deliveries agree with the rows. */
export async function checkDeliveryCounts(trx: Trx, problems: Problems, dev: string | undefined): Promise<void> {
  const counted = await trx
    .selectFrom('webhook_logs')
    .leftJoin('developers', 'developers.seq', 'webhook_logs.developer_seq')
    .select([
      'developers.id as developer_id',
      'webhook_logs.status',
      'webhook_logs.event_type_code',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .$if(dev !== undefined, (qb) => qb.where('developers.id', '=', dev!))
    .groupBy(['webhook_logs.developer_seq', 'developers.id', 'webhook_logs.status', 'webhook_logs.event_type_code'])
    .execute();
  const logs = counted.map((r) => ({ ...r, event_type: typeName(r.event_type_code) }));
  const logCounters = await trx
    .selectFrom('webhook_log_counts')
    .selectAll()
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  compareCounters(
    'webhook_log_counts',
    problems,
    logs.map((r) => ({
      key: `${r.developer_id}:${r.status}:${r.event_type}`,
      n: Number(r.n),
      what: `${r.status} ${r.event_type} webhook logs`,
    })),
    new Map(logCounters.map((r) => [`${r.developer_id}:${r.status}:${r.event_type}`, r.n])),
  );

  const received = await trx
    .selectFrom('receiver_events')
    .select(['developer_id', (eb) => eb.fn.countAll<number>().as('n')])
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .groupBy('developer_id')
    .execute();
  const receivedCounters = await trx
    .selectFrom('receiver_event_counts')
    .selectAll()
    .$if(dev !== undefined, (qb) => qb.where('developer_id', '=', dev!))
    .execute();
  compareCounters(
    'receiver_event_counts',
    problems,
    received.map((r) => ({ key: r.developer_id, n: Number(r.n), what: 'deliveries the built-in receiver kept' })),
    new Map(receivedCounters.map((r) => [r.developer_id, r.n])),
  );
}
