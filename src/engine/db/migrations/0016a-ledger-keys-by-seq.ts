import { type Kysely, sql } from 'kysely';
import { inBaseline } from './by-dialect.js';
import { rebuildTables } from './sqlite-rebuild.js';
import { transactionsTable, transactionsIndexes } from './sqlite-shapes.js';

export const ledgerKeysBySeq = inBaseline(async (db: Kysely<unknown>) => {
  // Postings and entries are internal (nothing in the API names them): they are keyed by their
  // seq alone, with no 36-character id and no unique index on it, and everything that pointed at
  // them by id points at the seq (entries.posting_seq, transactions.posting_seq and entry_seq,
  // suspense_items.posting_seq). Every row and seq is kept.
  await rebuildTables(db, [
    {
      table: 'postings',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, developer_id text NOT NULL REFERENCES developers(id), kind text NOT NULL, created_at text NOT NULL`,
      copy: sql`SELECT seq, developer_id, kind, created_at FROM postings`,
    },
    {
      table: 'entries',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, posting_seq integer NOT NULL REFERENCES postings(seq),
            account_id text NOT NULL REFERENCES accounts(id), amount integer NOT NULL`,
      copy: sql`SELECT e.seq, p.seq, e.account_id, e.amount FROM entries e JOIN postings p ON p.id = e.posting_id`,
      indexes: [
        sql`CREATE INDEX entries_posting ON entries (posting_seq)`,
        sql`CREATE INDEX entries_account ON entries (account_id)`,
      ],
    },
    {
      table: 'transactions',
      create: transactionsTable(sql`NOT NULL`),
      copy: sql`SELECT t.seq, t.id, t.developer_id, t.wallet_id, p.seq, e.seq, t.type, t.amount, t.balance_before, t.balance_after,
            t.currency, t.status, t.provider_reference, t.sender_name, t.sender_account, t.raw_narration, t.service_intelligence,
            t.destination_account_number, t.destination_bank_code, t.destination_account_name, t.fee, t.agent_id, t.created_at, t.updated_at
            FROM transactions t JOIN postings p ON p.id = t.posting_id JOIN entries e ON e.id = t.entry_id`,
      indexes: transactionsIndexes(),
    },
    {
      table: 'suspense_items',
      create: sql`seq integer PRIMARY KEY AUTOINCREMENT, id text NOT NULL UNIQUE, developer_id text NOT NULL REFERENCES developers(id),
            wallet_id text REFERENCES wallets(id), account_number text NOT NULL, amount integer NOT NULL, sender_name text NOT NULL,
            sender_account text NOT NULL, sender_bank_code text NOT NULL, raw_narration text NOT NULL, provider_reference text NOT NULL,
            reason text NOT NULL, status text NOT NULL, raw_payload text NOT NULL, service_intelligence text,
            posting_seq integer NOT NULL REFERENCES postings(seq), resolved_at text, resolution_note text, created_at text NOT NULL,
            resolution_action text, resolution_transaction_id text`,
      copy: sql`SELECT s.seq, s.id, s.developer_id, s.wallet_id, s.account_number, s.amount, s.sender_name, s.sender_account,
            s.sender_bank_code, s.raw_narration, s.provider_reference, s.reason, s.status, s.raw_payload, s.service_intelligence, p.seq,
            s.resolved_at, s.resolution_note, s.created_at, s.resolution_action, s.resolution_transaction_id
            FROM suspense_items s JOIN postings p ON p.id = s.posting_id`,
      indexes: [sql`CREATE INDEX suspense_items_developer ON suspense_items (developer_id, status, reason)`],
    },
  ]);
});
