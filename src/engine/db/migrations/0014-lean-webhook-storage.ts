import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const leanWebhookStorage = inBaseline(async (db: Kysely<unknown>) => {
  // Each event's payload is stored once, on the event: a delivery log reads it from there, and
  // the built-in receiver keeps no copy of a body that is exactly its event's payload (NULL).
  await db.schema.alterTable('webhook_logs').dropColumn('payload').execute();
  await sql`CREATE TABLE receiver_events_0014 (
        seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
        webhook_id text, event_type text, headers text NOT NULL, body text, signature_valid integer NOT NULL,
        response_status integer NOT NULL, created_at text NOT NULL)`.execute(db);
  await sql`INSERT INTO receiver_events_0014 (seq, id, developer_id, webhook_id, event_type, headers, body, signature_valid, response_status, created_at)
        SELECT r.seq, r.id, r.developer_id, r.webhook_id, r.event_type, r.headers,
          CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.id = r.webhook_id AND e.developer_id = r.developer_id AND e.payload = r.body)
            THEN NULL ELSE r.body END,
          r.signature_valid, r.response_status, r.created_at
        FROM receiver_events r`.execute(db);
  await sql`DROP TABLE receiver_events`.execute(db);
  await sql`ALTER TABLE receiver_events_0014 RENAME TO receiver_events`.execute(db);
  // Index entries end in the rowid (seq), so an index on developer_id alone lists in seq order.
  await db.schema.createIndex('receiver_events_developer').on('receiver_events').column('developer_id').execute();

  // Lists read a developer's logs in the order they were recorded (seq, the rowid that ends
  // every index entry), filtered by nothing, by event type or by status, each through an index
  // in that order (no sort, no scan). Most logs end DELIVERED: the status index keeps only the
  // others, and a DELIVERED list reads the developer's index, where nearly every row matches.
  await db.schema.createIndex('webhook_logs_developer').on('webhook_logs').column('developer_id').execute();
  await db.schema
    .createIndex('webhook_logs_developer_type')
    .on('webhook_logs')
    .columns(['developer_id', 'event_type'])
    .execute();
  await db.schema
    .createIndex('webhook_logs_developer_status')
    .on('webhook_logs')
    .columns(['developer_id', 'status'])
    .where(sql.ref('status'), '!=', 'DELIVERED')
    .execute();

  // `total` without counting: counters kept with the rows, as transaction_counts are.
  await db.schema
    .createTable('webhook_log_counts')
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_log_counts_pk', ['developer_id', 'status', 'event_type'])
    .execute();
  await sql`INSERT INTO webhook_log_counts (developer_id, status, event_type, n)
        SELECT developer_id, status, event_type, count(*) FROM webhook_logs GROUP BY developer_id, status, event_type`.execute(
    db,
  );
  await db.schema
    .createTable('receiver_event_counts')
    .addColumn('developer_id', 'text', (c) => c.primaryKey().references('developers.id'))
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO receiver_event_counts (developer_id, n) SELECT developer_id, count(*) FROM receiver_events GROUP BY developer_id`.execute(
    db,
  );
});
