import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';

export const transactionsByTime = inBaseline(async (db: Kysely<unknown>) => {
  // Every wallet's transactions of a developer in one list (GET /v1/transactions), oldest or
  // newest first, and bounded by time: read in order from this index instead of gathering each
  // wallet's and sorting them all for every page.
  await sql`CREATE INDEX transactions_time ON transactions (created_at)`.execute(db);
});
