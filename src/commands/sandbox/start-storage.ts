import { join, resolve } from 'node:path';
import { ApiError, UsageError } from '../../client/errors.js';
import { databaseRefusal, isPostgresUrl, redactDatabase } from '../../api/database-url.js';
import { webhookLease } from '../../sandbox/start-options.js';
import type { Io } from '../../cli/io.js';

/** `sandbox start`'s storage flags: --db, --memory, --database (LEDGER_DATABASE_URL), and PostgreSQL's settings. */
export interface StorageFlags {
  db?: string;
  memory?: boolean;
  database?: string;
  poolSize?: string;
  statementTimeout?: string;
  webhookLease?: string;
}

/** The variable --database is read from; a detached child gets its URL here, never in argv. */
export const DATABASE_URL_ENV = 'LEDGER_DATABASE_URL';
const POOL_SIZE_ENV = 'LEDGER_PG_POOL_SIZE';
const STATEMENT_TIMEOUT_ENV = 'LEDGER_PG_STATEMENT_TIMEOUT';
const WEBHOOK_LEASE_ENV = 'LEDGER_PG_WEBHOOK_LEASE';
/** Defaults of PostgreSQL's settings, as --help and docs/storage.md give them (engine/db/postgres/connect.ts has the same). */
const DEFAULT_POOL_SIZE = 10;
const DEFAULT_STATEMENT_TIMEOUT_SECONDS = 30;

/** Where the sandbox keeps its data, checked, and how that reaches the server and a detached child. */
export interface StorageChoice {
  /** What the server opens: a SQLite file, ':memory:', or the postgres:// URL as given, password and all. */
  location: string;
  /** `location` as it may be shown (banner, log, state file, errors): a URL's password is `***`. */
  shown: string;
  memory: boolean;
  /** PostgreSQL's settings; undefined on SQLite. */
  postgres: { poolSize: number; statementTimeoutMs: number } | undefined;
  /** Where servers share the database (PostgreSQL): how long a begun webhook attempt holds its delivery; undefined on SQLite. */
  webhookLeaseSeconds: number | undefined;
  /** The flags a detached child gets: never the URL, which `ps` would show. */
  args: string[];
  /** The detached child's environment: the URL, or none (one inherited would conflict with --db). */
  env: Record<string, string | undefined>;
  /** The banner's Database line. */
  banner: string;
}

/**
 * Checks the storage flags before any server code loads (a bad one is a usage error, exit 2, for
 * the parent of a detached sandbox too). A postgres:// or postgresql:// URL runs on PostgreSQL; a
 * file path or ':memory:' given to --database is SQLite, as with --db or --memory. --pool-size and
 * --statement-timeout and --webhook-lease are PostgreSQL's: refused on the command line with SQLite,
 * and their variables then ignored (they may be set for another sandbox). The lease is checked
 * against the webhook timeout (seconds), which it must outlast.
 * @example storageChoice(io, { database: 'postgres://ledger@127.0.0.1/ledger' }, '.ledger', 15).postgres // { poolSize: 10, statementTimeoutMs: 30000 }
 */
export function storageChoice(
  io: Io,
  flags: StorageFlags,
  stateDir: string,
  webhookTimeoutSeconds: number,
): StorageChoice {
  const given = flags.database;
  const postgres = given !== undefined && isPostgresUrl(given);
  if (given !== undefined && !postgres && /^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
    // Only the scheme is shown: the rest may hold a password.
    throw new UsageError(
      `--database takes a postgres:// or postgresql:// URL, a SQLite file path or :memory:, not a ${given.slice(0, given.indexOf('://'))}:// URL`,
    );
  }
  const onCommandLine = (value: string | undefined, variable: string) =>
    value !== undefined && value !== io.env[variable];
  if (!postgres) {
    for (const [flag, value, variable] of [
      ['--pool-size', flags.poolSize, POOL_SIZE_ENV],
      ['--statement-timeout', flags.statementTimeout, STATEMENT_TIMEOUT_ENV],
      ['--webhook-lease', flags.webhookLease, WEBHOOK_LEASE_ENV],
    ] as const) {
      if (onCommandLine(value, variable))
        throw new UsageError(
          `${flag} is a PostgreSQL setting: this sandbox runs on SQLite (give --database postgres://… to run on PostgreSQL)`,
        );
    }
    const memory = Boolean(flags.memory) || given === ':memory:';
    const location = memory ? ':memory:' : resolve(io.cwd, given ?? flags.db ?? join(stateDir, 'sandbox.db'));
    return {
      location,
      shown: location,
      memory,
      postgres: undefined,
      webhookLeaseSeconds: undefined,
      args: memory ? ['--memory'] : ['--db', location],
      env: { [DATABASE_URL_ENV]: undefined },
      banner: location,
    };
  }
  const poolSize = flags.poolSize === undefined ? DEFAULT_POOL_SIZE : Number(flags.poolSize);
  if (!/^\d+$/.test(flags.poolSize ?? '1') || poolSize < 1 || poolSize > 1000)
    throw new UsageError(
      `--pool-size${from(flags.poolSize, POOL_SIZE_ENV, io)} must be a whole number of connections from 1 to 1000`,
    );
  const timeout =
    flags.statementTimeout === undefined ? DEFAULT_STATEMENT_TIMEOUT_SECONDS : Number(flags.statementTimeout);
  if (!/^\d+(\.\d+)?$/.test(flags.statementTimeout ?? '1') || !(timeout >= 0.001) || timeout > 86_400) {
    throw new UsageError(
      `--statement-timeout${from(flags.statementTimeout, STATEMENT_TIMEOUT_ENV, io)} must be a number of seconds, above 0 and at most 86400`,
    );
  }
  const leaseFlag = `--webhook-lease${from(flags.webhookLease, WEBHOOK_LEASE_ENV, io)}`;
  if (!/^\d+(\.\d+)?$/.test(flags.webhookLease ?? '1'))
    throw new UsageError(
      `${leaseFlag} must be a number of seconds, longer than the webhook timeout (${webhookTimeoutSeconds} s) and at most 3600`,
    );
  let lease: number;
  try {
    lease = webhookLease(
      flags.webhookLease === undefined ? undefined : Number(flags.webhookLease),
      webhookTimeoutSeconds,
      leaseFlag,
    );
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const shown = redactDatabase(given!);
  return {
    location: given!,
    shown,
    memory: false,
    postgres: { poolSize, statementTimeoutMs: Math.round(timeout * 1000) },
    webhookLeaseSeconds: lease,
    args: ['--pool-size', String(poolSize), '--statement-timeout', String(timeout), '--webhook-lease', String(lease)],
    env: { [DATABASE_URL_ENV]: given },
    banner: `${shown} (PostgreSQL: pool of ${poolSize}, statements cancelled after ${timeout} s, webhook attempts leased for ${lease} s)`,
  };
}

/** Names the variable a bad value came from, when it did not come from the command line. */
const from = (value: string | undefined, variable: string, io: Io) =>
  value !== undefined && value === io.env[variable] ? ` (from ${variable})` : '';

/**
 * A PostgreSQL database that cannot be reached or refuses this server, named as a request names it
 * (decisions: Storage): STORAGE_UNAVAILABLE, with the URL shown without its password and what
 * PostgreSQL or the network said; undefined for any other failure.
 */
export function postgresRefusal(error: unknown, choice: StorageChoice): ApiError | undefined {
  const refused = databaseRefusal(error, choice.location);
  return refused
    ? new ApiError(
        503,
        'STORAGE_UNAVAILABLE',
        `${refused}: the sandbox cannot serve it; check the URL, and that the server runs and takes this user's connections from here`,
      )
    : undefined;
}
