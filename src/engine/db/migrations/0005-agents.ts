import { type Kysely } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const agents = inBaseline(async (db: Kysely<unknown>) => {
  await db.schema
    .createTable('agents')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('threshold', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('destination_wallet_id', 'text', (c) => c.references('wallets.id'))
    .addColumn('sweep_amount', 'integer')
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('trigger_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_triggered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agents_wallet').on('agents').columns(['wallet_id', 'seq']).execute();
  await db.schema
    .createTable('agent_runs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.id'))
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id'))
    .addColumn('wallet_id', 'text', (c) => c.notNull())
    .addColumn('origin_transaction_id', 'text', (c) => c.notNull())
    .addColumn('cause_transaction_id', 'text', (c) => c.notNull())
    .addColumn('hop', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('effect', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text')
    .addColumn('error', 'text')
    .addColumn('balance', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_runs_agent').on('agent_runs').columns(['agent_id', 'seq']).execute();
});
