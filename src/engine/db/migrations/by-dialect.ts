import type { Kysely, Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

type Up = (db: Kysely<any>) => Promise<void>;

/**
 * A migration written apart for each backend, run on the one `db` speaks. A new migration that
 * Kysely's builder or portable SQL can say is one plain `{ up }` instead, run on both.
 * @example export const notes = byDialect({ sqlite: async (db) => {…}, postgres: async (db) => {…} });
 */
export const byDialect = ({ sqlite, postgres }: { sqlite: Up; postgres: Up }): Migration => ({
  up: (db) => (isPostgres(db) ? postgres(db) : sqlite(db)),
});

/**
 * A migration from before PostgreSQL was a backend: SQLite runs it, and on PostgreSQL it does
 * nothing, its change being already in the schema that 0001 creates there (postgres-baseline.ts).
 */
export const inBaseline = (sqlite: Up): Migration => byDialect({ sqlite, postgres: async () => {} });
