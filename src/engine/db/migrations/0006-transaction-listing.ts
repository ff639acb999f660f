import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const transactionListing = inBaseline(async (db: Kysely<unknown>) => {
  // Lists read in (created_at, seq) order per wallet, with or without a type filter.
  await db.schema
    .createIndex('transactions_wallet_time')
    .on('transactions')
    .columns(['wallet_id', 'created_at', 'seq'])
    .execute();
  await db.schema
    .createIndex('transactions_wallet_type_time')
    .on('transactions')
    .columns(['wallet_id', 'type', 'created_at', 'seq'])
    .execute();
  // `total` without counting a wallet's rows on every page.
  await db.schema
    .createTable('transaction_counts')
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('transaction_counts_pk', ['wallet_id', 'type'])
    .execute();
  await sql`INSERT INTO transaction_counts (wallet_id, type, n) SELECT wallet_id, type, count(*) FROM transactions GROUP BY wallet_id, type`.execute(
    db,
  );
});
