import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const webhooks = inBaseline(async (db: Kysely<unknown>) => {
  await db.schema.alterTable('developers').addColumn('webhook_secret_previous', 'text').execute();
  await db.schema.alterTable('developers').addColumn('webhook_secret_previous_until', 'text').execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('log_id', 'text', (c) => c.notNull().references('webhook_logs.id'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('http_status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_log').on('webhook_attempts').columns(['log_id', 'seq']).execute();
  await db.schema
    .createTable('receiver_events')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
    .addColumn('webhook_id', 'text')
    .addColumn('event_type', 'text')
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('signature_valid', 'integer', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('receiver_events_developer')
    .on('receiver_events')
    .columns(['developer_id', 'seq'])
    .execute();
});
