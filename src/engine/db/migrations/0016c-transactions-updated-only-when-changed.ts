import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import { transactionsTable, transactionsIndexes } from './sqlite-shapes.js';

export const transactionsUpdatedOnlyWhenChanged = inBaseline(async (db: Kysely<unknown>) => {
  // A transaction's updated_at is NULL until it changes (a payout's debit settling or failing):
  // it reads as its created_at (serialize.ts), which nearly every row repeated.
  await rebuildTables(db, [
    {
      table: 'transactions',
      create: transactionsTable(sql``),
      copy: sql`SELECT seq, id, developer_id, wallet_id, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
            provider_reference, sender_name, sender_account, raw_narration, service_intelligence, destination_account_number,
            destination_bank_code, destination_account_name, fee, agent_id, created_at, nullif(updated_at, created_at) FROM transactions`,
      indexes: transactionsIndexes(),
    },
  ]);
});
