import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import { epochMs, sameTime, accountTransactionsIndexes } from './sqlite-shapes.js';

export const ledgerTimesAsIntegers = inBaseline(async (db: Kysely<unknown>) => {
  // A transaction's and a posting's times are stored as integer milliseconds since the epoch
  // (6 bytes, not 24 characters, in the row and in both time indexes) and shown as the same
  // ISO text (transactions.repository.ts): ISO times of one width sort as their instants do, so
  // the lists' order is the same. A stored time that would not come back as the same text stops
  // the migration, the database as it was (rebuildTables counts the rows carried over).
  await rebuildTables(db, [
    {
      table: 'postings',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, developer_id text NOT NULL REFERENCES developers(id), kind text NOT NULL,
            created_at integer NOT NULL`,
      copy: sql`SELECT seq, developer_id, kind, ${epochMs(sql.ref('created_at'))} FROM postings WHERE ${sameTime(sql.ref('created_at'))}`,
    },
    {
      table: 'transactions',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, account_seq integer NOT NULL REFERENCES accounts(seq),
            posting_seq integer NOT NULL REFERENCES postings(seq), entry_seq integer NOT NULL REFERENCES entries(seq), type text NOT NULL,
            amount integer NOT NULL, balance_before integer NOT NULL, balance_after integer NOT NULL, currency text NOT NULL, status text NOT NULL,
            provider_reference text NOT NULL, sender_name text NOT NULL, sender_account text NOT NULL, raw_narration text NOT NULL,
            service_intelligence text, destination_account_number text, destination_bank_code text, destination_account_name text, fee integer,
            agent_id text, created_at integer NOT NULL, updated_at integer`,
      copy: sql`SELECT seq, id, account_seq, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
            provider_reference, sender_name, sender_account, raw_narration, service_intelligence, destination_account_number,
            destination_bank_code, destination_account_name, fee, agent_id, ${epochMs(sql.ref('created_at'))}, ${epochMs(sql.ref('updated_at'))}
            FROM transactions WHERE ${sameTime(sql.ref('created_at'))} AND (updated_at IS NULL OR ${sameTime(sql.ref('updated_at'))})`,
      indexes: accountTransactionsIndexes(),
    },
  ]);
});
