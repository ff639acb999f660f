import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { uuidV7 } from '../ids.js';
import { idText, storedId } from './stored.js';
import { insertAttempts, MAX_ATTEMPTS, RETRY_SCHEDULE_SECONDS, urlSeqs } from './webhooks.service.js';

// An attempt is counted (attempt_count) before it is sent, and its row in webhook_attempts is
// written with its outcome (webhooks.service.ts: beginAttempts, finishAttempt). A process that dies
// while an attempt is out, or a snapshot saved while one is, leaves the count one ahead of the
// rows. Where such a database is taken into a server (its start, a restore), no attempt of it is
// out: each counted attempt without a row gets one here, saying its outcome was never recorded.

/** An attempt's error when the sandbox stopped (was killed) while it was out. */
export const INTERRUPTED_BY_STOP =
  "interrupted: the sandbox stopped before this attempt's outcome was recorded; the endpoint may or may not have received it";
/** An attempt's error when the snapshot restored was saved while it was out. */
export const INTERRUPTED_BY_SNAPSHOT =
  'interrupted: the snapshot restored was saved while this attempt was out, so its outcome is not in it; the endpoint may or may not have received it';
/** An attempt's error when a restore cancelled it while it was out, and then failed (the data it was sent from stayed). */
export const CANCELLED_BY_RESTORE =
  'cancelled: a snapshot restore aborted this attempt while it was out, then did not complete; the endpoint may or may not have received it';
/** What an interrupted attempt names as its URL when its developer's deliveries go to the built-in receiver (whose address was the stopped server's). */
const BUILT_IN_RECEIVER = '(built-in receiver)';
/** Rows read or written per statement: SQLite takes at most 32,766 parameters in one. */
const CHUNK = 500;

/**
 * Logs that count more attempts than they have rows. Only a log an attempt left undelivered can
 * be one (an interrupted attempt leaves it PENDING, FAILED or DEAD): the partial index of those
 * (`webhook_logs_developer_status`, status != 'DELIVERED') is read, not the table, and each log's
 * rows are counted in the index of attempts by log. `attempt_count > 0` skips the count for
 * deliveries never attempted. The status is written as a literal: with a parameter SQLite cannot
 * use the partial index.
 */
const incomplete = (trx: Trx) =>
  trx
    .selectFrom('webhook_logs as l')
    .innerJoin('developers as d', 'd.seq', 'l.developer_seq')
    .select([
      'l.seq',
      'l.id',
      'l.status',
      'l.attempt_count',
      'l.next_retry_at_ms',
      'd.id as developer_id',
      'd.webhook_url',
    ])
    .where(sql<boolean>`l.status != 'DELIVERED'`)
    .where('l.attempt_count', '>', 0)
    .where((eb) =>
      eb(
        'l.attempt_count',
        '>',
        eb
          .selectFrom('webhook_attempts as a')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('a.log_seq', '=', 'l.seq'),
      ),
    );

/** What an attempt's row says of it, as far as telling the next one's kind goes. */
type Answered = { http_status_code: number | null; created_at_ms: number };

/**
 * Whether attempt `n` of `log`, never recorded, can only have been a retry by hand, from the log and
 * the row of attempt n - 1 (`before`): false when it may have been the schedule's.
 * - After the 8 scheduled attempts, or after a 410 (DEAD at once), only a retry by hand makes one.
 * - A DEAD log is never attempted by the schedule, but one with all 8 counted is left DEAD by the
 *   dispatcher when its 8th was out as it stopped (abandonLog): with neither of the above, it was that.
 * - A scheduled attempt moves the log's next retry to the time it began plus its wait, and it
 *   begins once due, after attempt n - 1 has its row (a log is never out twice): less that wait,
 *   the next retry falls after that row. One by hand leaves the schedule as attempt n - 1 (or one
 *   before) set it, which, less the wait after n, falls at or before that row (the waits never
 *   shrink; at it on a manual clock, where an attempt takes no time, when the two waits are
 *   equal). PENDING logs are never retried by hand.
 */
function byHand(
  log: { status: string; next_retry_at_ms: number | null },
  n: number,
  before: Answered | undefined,
): boolean {
  if (n > MAX_ATTEMPTS || before?.http_status_code === 410) return true;
  if (log.status !== 'FAILED' || log.next_retry_at_ms === null || before === undefined) return false;
  const wait = RETRY_SCHEDULE_SECONDS[Math.min(n, RETRY_SCHEDULE_SECONDS.length) - 1]! * 1000;
  return log.next_retry_at_ms - wait <= before.created_at_ms;
}

/**
 * Which logs `recordInterruptedAttempts` looks at. Where servers share the database, an attempt
 * counted without its row may be out on another server until its lease (the log's next retry, set
 * by `beginAttempts`) has passed: `lapsedOnly` leaves those alone. `logs` (by seq) narrows it to
 * the deliveries a dispatcher is about to attempt.
 */
export interface InterruptedScope {
  logs?: number[];
  lapsedOnly?: boolean;
}

/**
 * Gives every counted attempt that has no row its row: its number, no status code, `error`
 * saying why (`INTERRUPTED_BY_STOP` or `INTERRUPTED_BY_SNAPSHOT`), 0 ms, at the developer's
 * time now (`now`), to the developer's endpoint now; manual when it can only have been (`byHand`). Its id is derived from the log's and the number, so the
 * seeded stream of ids is not moved (a restart that finds one makes the ids that follow as one
 * that finds none). The logs themselves are left as they are.
 *
 * Call it only where no attempt is out (or, with `scope`, none of those it looks at): a live
 * attempt has no row yet either. Resolves with the rows added.
 * @example await recordInterruptedAttempts(trx, INTERRUPTED_BY_STOP, (id) => sandbox.envFor(id).clock.now());
 */
export async function recordInterruptedAttempts(
  trx: Trx,
  error: string,
  now: (developerId: string) => Date,
  scope: InterruptedScope = {},
): Promise<number> {
  let query = incomplete(trx);
  if (scope.logs !== undefined) {
    if (scope.logs.length === 0) return 0;
    query = query.where('l.seq', 'in', scope.logs);
  }
  let logs = await query.execute();
  // Held still: its attempt may be out on another server.
  if (scope.lapsedOnly)
    logs = logs.filter(
      (log) => log.next_retry_at_ms !== null && log.next_retry_at_ms <= now(log.developer_id).getTime(),
    );
  if (logs.length === 0) return 0;
  const recorded = [];
  // A few hundred at a time: a statement takes a bounded number of parameters.
  for (let i = 0; i < logs.length; i += CHUNK) {
    const seqs = logs.slice(i, i + CHUNK).map((l) => l.seq);
    recorded.push(
      ...(await trx
        .selectFrom('webhook_attempts')
        .select(['log_seq', 'attempt_number', 'http_status_code', 'created_at_ms'])
        .where('log_seq', 'in', seqs)
        .execute()),
    );
  }
  const byLog = new Map<number, Map<number, Answered>>();
  for (const r of recorded) {
    const numbers = byLog.get(r.log_seq) ?? new Map<number, Answered>();
    numbers.set(r.attempt_number, r);
    byLog.set(r.log_seq, numbers);
  }
  const rows = [];
  for (const log of logs) {
    const numbers = byLog.get(log.seq) ?? new Map<number, Answered>();
    const at = now(log.developer_id).getTime();
    const url = log.webhook_url ?? BUILT_IN_RECEIVER;
    for (let n = 1; n <= log.attempt_count; n++) {
      if (numbers.has(n)) continue;
      const random = createHash('sha256')
        .update(`interrupted:${idText(log.id)}:${n}`)
        .digest();
      rows.push({
        id: storedId(trx, uuidV7(at, random)),
        log_seq: log.seq,
        attempt_number: n,
        manual: byHand(log, n, numbers.get(n - 1)) ? 1 : 0,
        url,
        http_status_code: null,
        response_body: null,
        error,
        duration_ms: 0,
        created_at_ms: at,
      });
    }
  }
  const urls = await urlSeqs(
    trx,
    rows.map((r) => r.url),
  );
  for (let i = 0; i < rows.length; i += CHUNK)
    await insertAttempts(
      trx,
      rows.slice(i, i + CHUNK).map(({ url, ...row }) => ({ ...row, url_seq: urls.get(url)! })),
    );
  return rows.length;
}
