import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { WebhookLogStatus } from '../events/events.table.js';
import type { TransactionStatus, TransactionType } from '../ledger/ledger.table.js';

/** The instants a report covers, in epoch ms: `since` inclusive, `until` exclusive (null: no upper bound). */
export interface Period {
  since: number;
  until: number | null;
}

/**
 * A kobo total as SQL that cannot overflow and comes back exact: its high and low 32 bits summed
 * apart (each far inside 64 bits for any count of rows a sandbox holds), read as text, so a sum past
 * 2^53 (a system account's scale) is never rounded by a JavaScript number on its way out.
 */
const koboSum = (column: string): RawBuilder<unknown> =>
  sql`CAST(sum(${sql.ref(column)} >> 32) AS TEXT) || ':' || CAST(sum(${sql.ref(column)} & 4294967295) AS TEXT)`;

/** The exact value of a `koboSum`. */
export function exactKobo(text: string | null): bigint {
  if (!text) return 0n;
  const [high, low] = text.split(':');
  return (BigInt(high || '0') << 32n) + BigInt(low || '0');
}

/** The upper bound of a period as SQL, against a column of epoch ms. */
const beforeUntil = (column: string, until: number | null) =>
  until === null ? sql`1 = 1` : sql`${sql.ref(column)} < ${until}`;

export interface TransactionGroup {
  type: TransactionType;
  status: TransactionStatus;
  kind: string;
  count: number;
  amount: string;
  fee: string | null;
}

/**
 * The developer's wallet transactions made in the period, by type, status and the kind of posting
 * that made them (inbound credit, payout, fee...). One query: each wallet's (account_seq,
 * created_at) index gives its period's rows, so the cost follows the wallets and the period's rows,
 * not the whole ledger.
 */
export async function transactionGroups(
  db: Kysely<Database>,
  developerId: string,
  period: Period,
): Promise<TransactionGroup[]> {
  const { rows } = await sql<TransactionGroup>`
    SELECT t.type, t.status, p.kind, count(*) AS count, ${koboSum('t.amount')} AS amount, ${koboSum('t.fee')} AS fee
    FROM wallets w
    JOIN accounts a ON a.id = w.id
    JOIN transactions t ON t.account_seq = a.seq AND t.created_at >= ${period.since} AND ${beforeUntil('t.created_at', period.until)}
    JOIN postings p ON p.seq = t.posting_seq
    WHERE w.developer_id = ${developerId}
    GROUP BY t.type, t.status, p.kind`.execute(db);
  return rows;
}

export interface SuspenseGroup {
  status: string;
  reason: string;
  count: number;
  amount: string;
}

const inPeriod = (developerId: string, period: Period) => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const until = period.until === null ? sql`1 = 1` : sql`created_at < ${iso(period.until)}`;
  return sql`developer_id = ${developerId} AND created_at >= ${iso(period.since)} AND ${until}`;
};

/** The developer's suspense items that arrived in the period, by status and reason. */
export async function suspenseGroups(
  db: Kysely<Database>,
  developerId: string,
  period: Period,
): Promise<SuspenseGroup[]> {
  const { rows } = await sql<SuspenseGroup>`
    SELECT status, reason, count(*) AS count, ${koboSum('amount')} AS amount
    FROM suspense_items
    WHERE ${inPeriod(developerId, period)}
    GROUP BY status, reason`.execute(db);
  return rows;
}

/** The oldest of the developer's suspense items in `statuses` that arrived in the period, first made among equal times. */
export async function oldestSuspenseItem(
  db: Kysely<Database>,
  developerId: string,
  period: Period,
  statuses: readonly string[],
) {
  const { rows } = await sql<{ id: string; status: string; reason: string; created_at: string }>`
    SELECT id, status, reason, created_at
    FROM suspense_items
    WHERE ${inPeriod(developerId, period)} AND status IN (${sql.join(statuses)})
    ORDER BY created_at, seq
    LIMIT 1`.execute(db);
  return rows[0];
}

/**
 * The developer's deliveries of the period as one unbroken run of webhook_logs seqs, when they are one;
 * otherwise null. Both spans are read from indexes alone (events by developer and time, deliveries by
 * event), in one statement: when the period's events fill the seqs from their first to their last, no
 * other event lies between them, and when their deliveries fill theirs, no other delivery does. A
 * sandbox writes an event and its delivery together, so a busy day is one run, and its deliveries and
 * their attempts are then read in seq order, without looking up each event's delivery.
 */
export async function deliveryRun(
  db: Kysely<Database>,
  developerSeq: number,
  period: Period,
): Promise<{ lo: number; hi: number } | null> {
  const { rows } = await sql<{ lo: number | null; hi: number | null; n: number; logs: string | null }>`
    SELECT min(e.seq) AS lo, max(e.seq) AS hi, count(*) AS n,
      (SELECT min(l.seq) || ':' || max(l.seq) || ':' || count(*) FROM webhook_logs l WHERE l.event_seq BETWEEN min(e.seq) AND max(e.seq)) AS logs
    FROM events e
    WHERE e.developer_seq = ${developerSeq} AND e.created_at_ms >= ${period.since} AND ${beforeUntil('e.created_at_ms', period.until)}`.execute(
    db,
  );
  const events = rows[0]!;
  if (events.lo === null || events.hi === null || events.hi - events.lo + 1 !== Number(events.n) || !events.logs)
    return null;
  const [lo, hi, n] = events.logs.split(':').map(Number) as [number, number, number];
  return hi - lo + 1 === n ? { lo, hi } : null;
}

/**
 * Where the period's deliveries are read from: their run of seqs (`deliveryRun`) when they are one,
 * else each event of the period and its delivery.
 */
const periodLogs = (developerSeq: number, period: Period, run: { lo: number; hi: number } | null) =>
  run
    ? sql`webhook_logs l WHERE l.seq BETWEEN ${run.lo} AND ${run.hi}`
    : sql`events e JOIN webhook_logs l ON l.event_seq = e.seq
    WHERE e.developer_seq = ${developerSeq} AND e.created_at_ms >= ${period.since} AND ${beforeUntil('e.created_at_ms', period.until)}`;

/** The developer's webhook deliveries whose event was made in the period, by status. */
export async function deliveryGroups(
  db: Kysely<Database>,
  developerSeq: number,
  period: Period,
  run: { lo: number; hi: number } | null = null,
): Promise<{ status: WebhookLogStatus; count: number }[]> {
  const { rows } = await sql<{ status: WebhookLogStatus; count: number }>`
    SELECT l.status, count(*) AS count FROM ${periodLogs(developerSeq, period, run)}
    GROUP BY l.status`.execute(db);
  return rows;
}

export interface FailingEndpoint {
  url: string;
  failed_attempts: number;
  /** Deliveries with a failed attempt here that are still FAILED or DEAD. */
  failing_deliveries: number;
  last_at_ms: number;
  http_status_code: number | null;
  response_body: string | null;
  error: string | null;
}

/**
 * The endpoints that failed an attempt of the period's deliveries (an answer other than 2xx, or no
 * answer), each with its failed attempts and the last one's error: counted per endpoint first, then
 * that last attempt read by its seq (a column beside max() is SQLite's own). Given the deliveries'
 * run of seqs (`deliveryRun`), their attempts are read through the index of attempts by delivery, in
 * order, and a delivery is looked up only for a failed attempt.
 */
export async function failingEndpoints(
  db: Kysely<Database>,
  developerSeq: number,
  period: Period,
  run: { lo: number; hi: number } | null = null,
): Promise<FailingEndpoint[]> {
  const attempts = run
    ? sql`webhook_attempts x JOIN webhook_logs l ON l.seq = x.log_seq WHERE x.log_seq BETWEEN ${run.lo} AND ${run.hi}`
    : sql`events e JOIN webhook_logs l ON l.event_seq = e.seq JOIN webhook_attempts x ON x.log_seq = l.seq
      WHERE e.developer_seq = ${developerSeq} AND e.created_at_ms >= ${period.since} AND ${beforeUntil('e.created_at_ms', period.until)}`;
  const { rows } = await sql<FailingEndpoint>`
    SELECT u.url, f.failed_attempts, f.failing_deliveries,
      x.created_at_ms AS last_at_ms, x.http_status_code, substr(x.response_body, 1, 200) AS response_body, substr(x.error, 1, 200) AS error
    FROM (
      SELECT x.url_seq, count(*) AS failed_attempts,
        count(DISTINCT CASE WHEN l.status IN ('FAILED', 'DEAD') THEN l.seq END) AS failing_deliveries, max(x.seq) AS last_seq
      FROM ${attempts}
        AND (x.http_status_code IS NULL OR x.http_status_code NOT BETWEEN 200 AND 299)
      GROUP BY x.url_seq
    ) AS f
    JOIN webhook_attempts x ON x.seq = f.last_seq
    JOIN webhook_urls u ON u.seq = f.url_seq
    ORDER BY f.last_seq DESC`.execute(db);
  return rows;
}
