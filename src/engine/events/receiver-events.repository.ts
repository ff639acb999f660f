import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare, prepareInsertRows } from '../db/prepared.js';
import { inPageOrder, type Page, type PageQuery, pageWindow } from '../paging.js';
import type { ReceiverEventTable } from './events.table.js';
import { ANNOUNCED, withEventPayload } from './ledger-payload.js';
import { developerSeq, type StoredId, storedId, storedIdSql } from './stored.js';

/** What the built-in receiver kept, with the body it got (read from the event when it was exactly its payload). */
export type ReceivedRow = Omit<Selectable<ReceiverEventTable>, 'body'> & { body: string };

const RECEIVED_COLUMNS = [
  'id',
  'developer_id',
  'webhook_id',
  'event_type',
  'headers',
  'body',
  'signature_valid',
  'response_status',
  'created_at',
] as const;
const insertReceived = prepareInsertRows('receiver_events', RECEIVED_COLUMNS);

const addToCount = prepare((db, p: { developer_id: string; n: number }) =>
  db
    .insertInto('receiver_event_counts')
    .values({ developer_id: p.developer_id, n: p.n })
    .onConflict((oc) =>
      oc.column('developer_id').doUpdateSet((eb) => ({ n: eb('receiver_event_counts.n', '+', eb.ref('excluded.n')) })),
    ),
);

/**
 * Keeps deliveries the built-in receiver accepted, all of one developer, and counts them. A body
 * that is exactly its event's payload is stored as null: the event holds it.
 * @example
 * await keepReceived(trx, developerId, [
 *   { id, developer_id, webhook_id, event_type, headers, body: null, signature_valid: 1, response_status: 200, created_at },
 * ]);
 */
export async function keepReceived(
  trx: Trx,
  developerId: string,
  rows: Omit<Selectable<ReceiverEventTable>, 'seq'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await insertReceived(trx, rows);
  await addToCount(trx, { developer_id: developerId, n: rows.length });
}

const eventPayload = prepare((db, p: { developer: number; eventId: StoredId }) =>
  db
    .selectFrom('events')
    .leftJoin('transactions as announced', 'announced.seq', 'events.transaction_seq')
    .leftJoin('accounts as announced_account', 'announced_account.seq', 'announced.account_seq')
    .select('events.payload')
    .select(ANNOUNCED)
    .where('events.id', '=', p.eventId)
    .where('events.developer_seq', '=', p.developer),
);

/** The payload of one of the developer's events, if `eventId` names one. */
export async function findEventPayload(trx: Trx, developerId: string, eventId: string): Promise<string | undefined> {
  const [row] = (
    await eventPayload(trx, { developer: await developerSeq(trx, developerId), eventId: storedId(trx, eventId) })
  ).rows;
  return row && withEventPayload(row).payload;
}

/**
 * One page of what the receiver kept for a developer, in the order it arrived (through the
 * developer's index), `total` from the developer's counter.
 */
export async function listReceived(
  trx: Trx,
  developerId: string,
  query: PageQuery & { webhook_id?: string | undefined },
): Promise<Page<ReceivedRow>> {
  const webhookId = query.webhook_id;
  // One delivery's attempts are counted as they are read (a few rows); all of them, from the counter.
  const counted = webhookId
    ? await trx
        .selectFrom('receiver_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('developer_id', '=', developerId)
        .where('webhook_id', '=', webhookId)
        .executeTakeFirst()
    : await trx
        .selectFrom('receiver_event_counts')
        .select('n')
        .where('developer_id', '=', developerId)
        .executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const window = pageWindow(query, total);
  const rows = await trx
    .selectFrom('receiver_events')
    // The receiver keeps the event's id as text, the event as stored.ts stores it.
    .leftJoin('events', (join) =>
      join.on('events.id', '=', storedIdSql(trx, 'receiver_events.webhook_id')).on('receiver_events.body', 'is', null),
    )
    .leftJoin('transactions as announced', 'announced.seq', 'events.transaction_seq')
    .leftJoin('accounts as announced_account', 'announced_account.seq', 'announced.account_seq')
    .selectAll('receiver_events')
    .select('events.payload')
    .select(ANNOUNCED)
    .where('receiver_events.developer_id', '=', developerId)
    .$if(webhookId !== undefined, (q) => q.where('receiver_events.webhook_id', '=', webhookId!))
    .orderBy('receiver_events.seq', window.order)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  const items = rows.map((joined) => {
    const { payload, ...row } = withEventPayload(joined);
    return { ...row, body: row.body ?? payload ?? '' };
  });
  return { items: inPageOrder(items, window), total, page: query.page, limit: query.limit };
}
