import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const dueDeliveriesInOrder = inBaseline(async (db: Kysely<unknown>) => {
  // The dispatcher asks for the oldest due deliveries. With (status, next_retry_at) that meant
  // sorting every due row on each call: slow with a backlog. Only PENDING and FAILED deliveries
  // have a next_retry_at, so an index of just those, in order, answers with no sort.
  await db.schema.dropIndex('webhook_logs_due').execute();
  await db.schema
    .createIndex('webhook_logs_due')
    .on('webhook_logs')
    .columns(['next_retry_at', 'seq'])
    .where(sql.ref('next_retry_at'), 'is not', null)
    .execute();
});
