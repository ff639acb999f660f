import pg from 'pg';
import Cursor from 'pg-cursor';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../database.js';
import { postgresTypes } from './types.js';

/** How a PostgreSQL storage connects (settings with defaults: docs/storage.md). */
export interface PostgresSettings {
  /** Connections this server keeps open at most. */
  poolSize: number;
  /** A statement running longer is cancelled (SQLSTATE 57014), so one stuck query cannot hold a connection for ever. */
  statementTimeoutMs: number;
}

export const DEFAULT_POSTGRES_SETTINGS: PostgresSettings = { poolSize: 10, statementTimeoutMs: 30_000 };

/**
 * Kysely over a pool of connections to the PostgreSQL database at `url`. Integers come back as JS
 * numbers, exactly, or not at all (types.ts). `schema` puts one schema first on the search path (a
 * snapshot's staging schema); `max` bounds the pool.
 */
export function connect(
  url: string,
  settings: PostgresSettings,
  options: { schema?: string; max?: number } = {},
): { db: Kysely<Database>; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? settings.poolSize,
    types: postgresTypes,
    statement_timeout: settings.statementTimeoutMs,
    application_name: 'ledger-sandbox',
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // A connection the server ends (a restart, a kill) is dropped from the pool; the query that used it fails, not the process.
  pool.on('error', () => {});
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) }), pool };
}
