import type { Trx } from '../db/database.js';
import { prepareRows } from '../db/prepared.js';
import { idText } from './stored.js';
import type { WebhookLogRow } from './webhook-logs.repository.js';

// Deliveries written by a transaction that is still open, kept in memory for whoever commits it.
// The group commit watches each of its transactions: after COMMIT it hands the deliveries of the
// writes that committed to the dispatcher, which delivers them without reading them back (the
// due-deliveries query joins every log to its event and transaction to build the payload: about a
// fifth of the SQLite time of a transfer). A write rolled back to its savepoint takes its
// deliveries back (the group commit cuts the list back to where it stood); a batch that fails hands over nothing. Nothing
// here is needed for correctness: a delivery the memory path misses (a crash, a restart, a
// transaction nobody watched) is found by the due-deliveries query as before.

const watched = new WeakMap<object, WebhookLogRow[]>();

/** Starts keeping the deliveries written in `trx`; returns the list they are added to, in the order written. */
export function watchFreshDeliveries(trx: object): WebhookLogRow[] {
  const fresh: WebhookLogRow[] = [];
  watched.set(trx, fresh);
  return fresh;
}

/** Stops keeping them (after COMMIT or ROLLBACK). */
export function unwatchFreshDeliveries(trx: object): void {
  watched.delete(trx);
}

/** Whether anyone keeps the deliveries of `trx` (only then are the rows worth building). */
export const isWatched = (trx: object): boolean => watched.has(trx);

/** Adds the deliveries a statement of `trx` just wrote, as the due-deliveries query would read them back. */
export function noteFreshDeliveries(trx: object, logs: WebhookLogRow[]): void {
  watched.get(trx)?.push(...logs);
}

/**
 * Of deliveries kept in memory since their write committed, those that still wait for their first
 * attempt, as the memory has them: one look-up by seq each. Anything may have happened to a log
 * since (the due-deliveries query handed it over, a reset removed it, a restore put another log
 * in its seq), and then it is left out.
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
