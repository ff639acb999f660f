import type { Transaction } from 'kysely';
import type { Database, Trx } from './database.js';
import type { WebhookLogRow } from '../events/webhook-logs.repository.js';

/**
 * What a write gives back once its transaction has committed: the work's value, and the webhook
 * deliveries its events recorded, as the due-deliveries query would read them back, in the order
 * written. Whoever delivers them can start at once without reading them back (that query joins
 * every log to its event and transaction to build the payload: about a fifth of the SQLite time of
 * a transfer). A write rolled back, alone or with its batch, gives back nothing.
 */
export interface Written<T> {
  value: T;
  deliveries: WebhookLogRow[];
}

/**
 * The transaction a storage runs writes in: Kysely's, with the list that the events written in it
 * add their deliveries to (emitEvents). The storage reads the list when the transaction commits
 * and hands each write its own part of it (`Written`).
 */
export type WriteTransaction = Transaction<Database> & { readonly deliveries: WebhookLogRow[] };

/** Makes `trx` a write transaction, with no deliveries yet. */
export function openWrite<T extends Transaction<Database>>(trx: T): T & WriteTransaction {
  return Object.assign(trx, { deliveries: [] as WebhookLogRow[] });
}

/**
 * The deliveries list of `trx` when a storage write runs it; undefined for a transaction opened
 * elsewhere (start-up, a test), whose deliveries the due-deliveries query finds.
 */
export function deliveriesOf(trx: Trx): WebhookLogRow[] | undefined {
  return 'deliveries' in trx ? (trx as WriteTransaction).deliveries : undefined;
}
