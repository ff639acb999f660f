import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import { accountTransactionsIndexes } from './sqlite-shapes.js';

export const ledgerAccountsBySeq = inBaseline(async (db: Kysely<unknown>) => {
  // Accounts get an integer key (seq, in the order they were made), and the hot ledger rows
  // point at it instead of repeating a 36-character id: an entry at its account (account_seq), a
  // wallet transaction at its wallet's account (account_seq, in the row and its three indexes),
  // which also gives its wallet id and developer (both read through the account, so the
  // transaction's own copy of the developer's id goes). Every row and seq is kept.
  await rebuildTables(db, [
    {
      table: 'accounts',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
            kind text NOT NULL, balance integer NOT NULL DEFAULT 0, floor_zero integer NOT NULL, created_at text NOT NULL,
            CONSTRAINT accounts_floor CHECK (floor_zero = 0 OR balance >= 0)`,
      copy: sql`SELECT NULL, id, developer_id, kind, balance, floor_zero, created_at FROM accounts ORDER BY rowid`,
      indexes: [sql`CREATE UNIQUE INDEX accounts_system_kind ON accounts (developer_id, kind) WHERE kind != 'WALLET'`],
    },
    {
      table: 'entries',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, posting_seq integer NOT NULL REFERENCES postings(seq),
            account_seq integer NOT NULL REFERENCES accounts(seq), amount integer NOT NULL`,
      copy: sql`SELECT e.seq, e.posting_seq, a.seq, e.amount FROM entries e JOIN accounts_0016 a ON a.id = e.account_id`,
      indexes: [
        sql`CREATE INDEX entries_posting ON entries (posting_seq)`,
        sql`CREATE INDEX entries_account ON entries (account_seq)`,
      ],
    },
    {
      table: 'transactions',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, account_seq integer NOT NULL REFERENCES accounts(seq),
            posting_seq integer NOT NULL REFERENCES postings(seq), entry_seq integer NOT NULL REFERENCES entries(seq), type text NOT NULL,
            amount integer NOT NULL, balance_before integer NOT NULL, balance_after integer NOT NULL, currency text NOT NULL, status text NOT NULL,
            provider_reference text NOT NULL, sender_name text NOT NULL, sender_account text NOT NULL, raw_narration text NOT NULL,
            service_intelligence text, destination_account_number text, destination_bank_code text, destination_account_name text, fee integer,
            agent_id text, created_at text NOT NULL, updated_at text`,
      copy: sql`SELECT t.seq, t.id, a.seq, t.posting_seq, t.entry_seq, t.type, t.amount, t.balance_before, t.balance_after, t.currency, t.status,
            t.provider_reference, t.sender_name, t.sender_account, t.raw_narration, t.service_intelligence, t.destination_account_number,
            t.destination_bank_code, t.destination_account_name, t.fee, t.agent_id, t.created_at, t.updated_at
            FROM transactions t JOIN accounts_0016 a ON a.id = t.wallet_id AND a.developer_id = t.developer_id`,
      indexes: accountTransactionsIndexes(),
    },
  ]);
});
