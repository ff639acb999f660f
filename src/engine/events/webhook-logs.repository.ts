import { type Selectable, sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { type FilterColumns, filteredWallet, type ListFilters, narrowed, whereFilters } from '../filters.js';
import { prepare, prepareRows } from '../db/prepared.js';
import { jsonString } from '../db/json.js';
import { inPageOrder, type Page, type PageQuery, pageWindow } from '../paging.js';
import { withAnsweredBody } from './answers.js';
import type { WebhookLogStatus, WebhookLogTable } from './events.table.js';
import { ANNOUNCED, withEventPayload } from './ledger-payload.js';
import { developerSeq, idText, isoTime, isoTimeOrNull, type StoredId, storedId, typeCode, typeName } from './stored.js';

/**
 * A delivery log as callers see it: its developer's id, its event type's name and ISO times (stored
 * as numbers: stored.ts), with its event's id, the payload it sends and its time of creation, all
 * stored once, on its event.
 */
export type WebhookLogRow = Omit<
  Selectable<WebhookLogTable>,
  'id' | 'developer_seq' | 'event_type_code' | 'next_retry_at_ms' | 'delivered_at_ms'
> & {
  id: string;
  developer_id: string;
  event_type: string;
  next_retry_at: string | null;
  delivered_at: string | null;
  event_id: string;
  payload: string;
  created_at: string;
};

/** The columns of a log as stored, as callers see them (see WebhookLogRow); the rest as given. */
export function fromStoredLog<R extends Selectable<WebhookLogTable>>(
  row: R,
): Omit<R, 'id' | 'developer_seq' | 'event_type_code' | 'next_retry_at_ms' | 'delivered_at_ms'> &
  Pick<WebhookLogRow, 'id' | 'event_type' | 'next_retry_at' | 'delivered_at'> {
  const { id, developer_seq: _developer, event_type_code, next_retry_at_ms, delivered_at_ms, ...rest } = row;
  return {
    ...rest,
    id: idText(id),
    event_type: typeName(event_type_code),
    next_retry_at: isoTimeOrNull(next_retry_at_ms),
    delivered_at: isoTimeOrNull(delivered_at_ms),
  };
}

/**
 * Logs with their developer's id, their event's id and payload: one look-up by the event's seq per
 * row, and one of its transaction by seq when the payload is built from it (ledger-payload.ts);
 * rows go through `built`, which also gives back a response body stored as NULL (answers.ts).
 */
const withPayload = (trx: Trx) =>
  trx
    .selectFrom('webhook_logs')
    .innerJoin('events', 'events.seq', 'webhook_logs.event_seq')
    .innerJoin('developers', 'developers.seq', 'webhook_logs.developer_seq')
    .leftJoin('transactions as announced', 'announced.seq', 'events.transaction_seq')
    .leftJoin('accounts as announced_account', 'announced_account.seq', 'announced.account_seq')
    .selectAll('webhook_logs')
    .select(['developers.id as developer_id', 'events.id as event_id', 'events.payload', 'events.created_at_ms'])
    .select(ANNOUNCED);

type Joined = Awaited<ReturnType<ReturnType<typeof withPayload>['execute']>>[number];

const built = (rows: Joined[]): WebhookLogRow[] =>
  rows.map((row) => {
    const { created_at_ms, event_id, ...log } = fromStoredLog(withEventPayload(row));
    return withAnsweredBody({ ...log, event_id: idText(event_id), created_at: isoTime(created_at_ms) });
  });

const logById = prepare((db, p: { id: StoredId }) => withPayload(db).where('webhook_logs.id', '=', p.id));
const logBySeq = prepare((db, p: { seq: number }) => withPayload(db).where('webhook_logs.seq', '=', p.seq));

/** A delivery as it is now (the dispatcher re-reads it before recording an attempt), by its id or its seq. */
export async function findLog(trx: Trx, key: string | number): Promise<WebhookLogRow | undefined> {
  return built(
    (typeof key === 'number' ? await logBySeq(trx, { seq: key }) : await logById(trx, { id: storedId(trx, key) })).rows,
  )[0];
}

/** One developer's log by id, or undefined (another developer's log is as good as missing). */
export async function findDeveloperLog(trx: Trx, developerId: string, id: string): Promise<WebhookLogRow | undefined> {
  const developer = await developerSeq(trx, developerId);
  return built(
    await withPayload(trx)
      .where('webhook_logs.developer_seq', '=', developer)
      .where('webhook_logs.id', '=', storedId(trx, id))
      .execute(),
  )[0];
}

/**
 * One page of a developer's logs in the order they were recorded (insertion order, which is the
 * order of their created_at on the developer's clock), each filter served by an index in that
 * order; `total` from the counters. Statuses other than DELIVERED read the partial index of
 * undelivered logs, which the query names by repeating its condition. The time and wallet filters
 * are checked on each of the developer's logs read (their event's time, and the wallet of its
 * transaction or payload), and counted so.
 */
export async function listLogs(
  trx: Trx,
  developerId: string,
  query: PageQuery & ListFilters & { event_type?: string | undefined },
): Promise<Page<WebhookLogRow>> {
  const wallet = await filteredWallet(trx, developerId, query);
  if (wallet === null) return { items: [], total: 0, page: query.page, limit: query.limit };
  let items = whereFilters(
    withPayload(trx).where('webhook_logs.developer_seq', '=', await developerSeq(trx, developerId)),
    LOG_COLUMNS,
    query,
  );
  let counts = trx
    .selectFrom('webhook_log_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.val(0)).as('total'))
    .where('developer_id', '=', developerId);
  const statuses = [...new Set(query.status ?? [])];
  if (statuses.length > 0) {
    if (!statuses.includes('DELIVERED')) items = items.where(sql<boolean>`webhook_logs.status != 'DELIVERED'`);
    counts = counts.where('status', 'in', statuses as WebhookLogStatus[]);
  }
  if (query.event_type) {
    items = items.where('webhook_logs.event_type_code', '=', typeCode(query.event_type));
    counts = counts.where('event_type', '=', query.event_type);
  }
  if (wallet)
    items = items.where(
      sql`coalesce(announced_account.id, ${jsonString(trx, sql`nullif(events.payload, '')`, ['data', 'wallet_id'])})`,
      '=',
      wallet.id,
    );
  const total = Number(
    (wallet || narrowed(query)
      ? await items
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .executeTakeFirstOrThrow()
      : await counts.executeTakeFirstOrThrow()
    ).total,
  );
  const window = pageWindow(query, total);
  const rows = built(
    await items.orderBy('webhook_logs.seq', window.order).limit(window.limit).offset(window.offset).execute(),
  );
  return { items: inPageOrder(rows, window), total, page: query.page, limit: query.limit };
}

const LOG_COLUMNS: FilterColumns = {
  time: 'events.created_at_ms',
  stored: (time) => time.getTime(),
  status: 'webhook_logs.status',
};

/**
 * One developer's deliveries whose time had come by `cutoff` on that developer's clock, oldest
 * first, leaving out those in `skip` (in flight already).
 */
export async function dueLogs(
  trx: Trx,
  developerId: string,
  cutoff: Date,
  limit: number,
  skip: string[],
): Promise<WebhookLogRow[]> {
  let query = withPayload(trx)
    .where('webhook_logs.developer_seq', '=', await developerSeq(trx, developerId))
    .where('webhook_logs.next_retry_at_ms', '<=', cutoff.getTime())
    .where('webhook_logs.status', 'in', ['PENDING', 'FAILED']);
  if (skip.length > 0)
    query = query.where(
      'webhook_logs.id',
      'not in',
      skip.map((id) => storedId(trx, id)),
    );
  return built(await query.orderBy('webhook_logs.next_retry_at_ms').orderBy('webhook_logs.seq').limit(limit).execute());
}

/**
 * Of deliveries handed back by their writes (Written) and kept in memory since, those that still
 * wait for their first attempt, as the memory has them: one look-up by seq each. Anything may have
 * happened to a log since (the due-deliveries query handed it over, a reset removed it, a restore
 * put another log in its seq), and then it is left out.
 */
export async function stillFresh(trx: Trx, logs: WebhookLogRow[]): Promise<WebhookLogRow[]> {
  if (logs.length === 0) return [];
  const { rows } = await waitingFirst(trx, logs);
  const ids = new Map(rows.map((row) => [row.seq, idText(row.id)]));
  return logs.filter((log) => ids.get(log.seq) === log.id);
}

/** Of these logs (by seq), those still waiting for their first attempt (prepared once for each number of logs). */
const waitingFirst = prepareRows((db, logs: Pick<WebhookLogRow, 'seq'>[]) =>
  db
    .selectFrom('webhook_logs')
    .select(['seq', 'id'])
    .where(
      'seq',
      'in',
      logs.map((log) => log.seq),
    )
    .where('status', '=', 'PENDING')
    .where('attempt_count', '=', 0),
);

/**
 * When the developer's next delivery falls due after `afterMs` (epoch ms, on its clock): the
 * earliest of its deliveries waiting for an attempt (one in flight counts by the retry it would
 * need); undefined when none waits. One step down `webhook_logs_due`.
 */
export async function nextDeliveryDueMs(trx: Trx, developerId: string, afterMs: number): Promise<number | undefined> {
  const row = await trx
    .selectFrom('webhook_logs')
    .select('next_retry_at_ms')
    .where('developer_seq', '=', await developerSeq(trx, developerId))
    .where('next_retry_at_ms', '>', afterMs)
    .where('status', 'in', ['PENDING', 'FAILED'])
    .orderBy('next_retry_at_ms')
    .limit(1)
    .executeTakeFirst();
  return row?.next_retry_at_ms ?? undefined;
}

const addToCount = prepare((db, p: { developer_id: string; status: WebhookLogStatus; event_type: string; n: number }) =>
  db
    .insertInto('webhook_log_counts')
    .values({ developer_id: p.developer_id, status: p.status, event_type: p.event_type, n: p.n })
    .onConflict((oc) =>
      oc
        .columns(['developer_id', 'status', 'event_type'])
        .doUpdateSet((eb) => ({ n: eb('webhook_log_counts.n', '+', eb.ref('excluded.n')) })),
    ),
);

/** Counts new PENDING logs, one for each row given, in one statement. */
export const countNewLogs = prepareRows((db, rows: { developer_id: string; event_type: string }[]) =>
  db
    .insertInto('webhook_log_counts')
    .values(
      rows.map((row) => ({
        developer_id: row.developer_id,
        status: 'PENDING' as const,
        event_type: row.event_type,
        n: 1,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['developer_id', 'status', 'event_type'])
        .doUpdateSet((eb) => ({ n: eb('webhook_log_counts.n', '+', 1) })),
    ),
);

/** Keeps the counters that list totals read: `n` logs of this kind more (or fewer, when negative). */
export async function countLogs(
  trx: Trx,
  developerId: string,
  status: WebhookLogStatus,
  eventType: string,
  n: number,
): Promise<void> {
  if (n !== 0) await addToCount(trx, { developer_id: developerId, status, event_type: eventType, n });
}

/** Moves one log from one status's counter to another's (nothing when the status stays). */
export async function countStatusChange(
  trx: Trx,
  log: Pick<WebhookLogRow, 'developer_id' | 'event_type'>,
  from: WebhookLogStatus,
  to: WebhookLogStatus,
): Promise<void> {
  if (from === to) return;
  await countLogs(trx, log.developer_id, from, log.event_type, -1);
  await countLogs(trx, log.developer_id, to, log.event_type, 1);
}
