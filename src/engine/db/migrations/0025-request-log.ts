import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './columns.js';

/** The request log and its per-developer request numbers (decisions: Request log), the same on both backends. */
export const requestLog: Migration = {
  up: async (db: Kysely<any>) => {
    const t = columnTypes(db);
    await db.schema
      .createTable('request_log')
      .addColumn('developer_id', t.text, (c) => c.notNull().references('developers.id'))
      .addColumn('number', t.integer, (c) => c.notNull())
      .addColumn('method', t.text, (c) => c.notNull())
      .addColumn('path', t.text, (c) => c.notNull())
      .addColumn('status', t.integer, (c) => c.notNull())
      .addColumn('code', t.text)
      .addColumn('duration_ms', t.integer, (c) => c.notNull())
      .addColumn('idempotency_key', t.text)
      .addColumn('replayed', t.integer, (c) => c.notNull())
      .addColumn('source', t.text, (c) => c.notNull())
      .addColumn('at', t.integer, (c) => c.notNull())
      .addColumn('real_at', t.integer, (c) => c.notNull())
      .addColumn('request_body', t.text)
      // Newest first within a developer, and the retention's cut, both read this key from its end.
      .addPrimaryKeyConstraint('request_log_pkey', ['developer_id', 'number'])
      .execute();
    await db.schema
      .createTable('request_counters')
      .addColumn('developer_id', t.text, (c) => c.primaryKey().references('developers.id'))
      .addColumn('last', t.integer, (c) => c.notNull())
      .execute();
  },
};
