import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether `db` speaks PostgreSQL (else SQLite), told by its Kysely adapter. */
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
