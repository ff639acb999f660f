import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Whether `db` (or a transaction of it) is a PostgreSQL database, by its Kysely adapter: for the
 * few pieces of SQL, and the few results, that `src/engine/db/` spells per backend.
 */
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
