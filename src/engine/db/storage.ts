import type { Transaction } from 'kysely';
import type { StorageJob } from './backend.js';
import type { Database, Db } from './database.js';
import type { WriteTransaction, Written } from './write-transaction.js';

/**
 * The storage seam. Everything the sandbox and the engine need from a backend, and nothing of how
 * it does it: the write path, work that writes a lot, giving space back, snapshots and the
 * storage's health. `sqlite/` is one implementation (group commit, WAL checkpointer, file lock,
 * disk-fault guard, direct statements); a second backend is a folder beside it with the same
 * pieces, chosen in open-storage.ts. Queries themselves go through Kysely (`db`), on any backend.
 * See docs/storage.md.
 */
export interface Storage {
  /** Kysely over the backend: reads, and the writes of one caller at a time (scenario set-up, start-up). */
  readonly db: Db;
  /** Where the data lives: a file path or ':memory:' on SQLite, a postgres:// URL on PostgreSQL. */
  readonly location: string;
  /** Which backend this is: for /sandbox/health and messages, never for choosing SQL (db.ts's dialect does that). */
  readonly backend: 'sqlite' | 'postgres';
  /** Whether other servers may write the same data: then what a server keeps in memory (clocks, who the developers are) is read again. */
  readonly shared: boolean;
  /**
   * Runs a write in a transaction and answers once it has committed, with the work's value and the
   * webhook deliveries it made (Written). Writes that arrive together may share one transaction,
   * each in a savepoint of its own: one that fails rolls back alone, and its deliveries with it.
   * `lane` names whose writes these are (a developer's id): where several servers share the
   * storage, one lane's writes run one at a time across all of them, as they do behind SQLite's
   * one writer. A write without a lane must be safe beside any other (an upsert, a row of its own).
   * @example const { value: wallet, deliveries } = await storage.write((trx) => createWallet(trx, env, developerId, input), developerId);
   */
  write<T>(work: Work<T>, lane?: string): Promise<Written<T>>;
  /**
   * Keeps every other server's writes out of `lane` until `release` (a reset: all of a developer's
   * rows, in many transactions). The holder writes in the lane through `write` meanwhile; its
   * `exclusive` work runs as usual. Where no other server shares the storage, it holds nothing
   * (the sandbox's own hold keeps this server's requests back).
   * @example const hold = await storage.holdLane(developerId); try { await hold.write(finish); } finally { await hold.release(); }
   */
  holdLane(lane: string): Promise<LaneHold>;
  /**
   * Runs `work` alone: every write queued before it has committed, none queued after it has
   * started, and no transaction is open (a snapshot restore manages its own).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when everything queued so far has committed or failed. */
  drain(): Promise<void>;
  /** Work that writes a lot in many short transactions (a reset's chunks); run each job in `exclusive`, and `close` it after. */
  bulkWriter(): BulkWriter;
  /** Waits, holding nothing, until the backend's upkeep has caught up with bulk writes (SQLite: the WAL copied into the file). */
  catchUp(): Promise<void>;
  /** Gives the space that bulk removals freed back to the file system; `phase` names each step (for a tracer). */
  reclaim(phase?: (name: string) => void): Promise<void>;
  /** Saving and restoring whole copies of the data. */
  readonly snapshots: SnapshotHooks;
  /** Set once the storage was lost under the server (a database file removed or replaced): it must stop. */
  lost(): string | undefined;
  close(): Promise<void>;
}

export type Work<T> = (trx: WriteTransaction) => Promise<T>;

export type { WriteTransaction, Written } from './write-transaction.js';

/** A lane held against other servers (Storage.holdLane). */
export interface LaneHold {
  /** A write in the held lane, as `Storage.write` runs one. */
  write<T>(work: Work<T>): Promise<Written<T>>;
  release(): Promise<void>;
}

export type { StorageJob } from './backend.js';

/** Writes of bulk work, one job at a time, each its own transaction (see Storage.bulkWriter). */
export interface BulkWriter {
  /** False where the jobs run on the request thread (then they should be shorter). */
  readonly offThread: boolean;
  run<A extends unknown[], R>(job: StorageJob<A, R>, ...args: A): Promise<R>;
  close(): Promise<void>;
}

/** How a storage is opened (open-storage.ts). */
export interface StorageOptions {
  /** A file path or ':memory:' (SQLite), or a postgres:// URL (PostgreSQL). */
  location: string;
  /** PostgreSQL's pool size and statement timeout (connect.ts has the defaults). */
  postgres?: { poolSize?: number; statementTimeoutMs?: number };
  /** A server under load: upkeep (SQLite's checkpoints) off the request thread. */
  underLoad?: boolean;
  /** Reads that scale with the data apart from the request thread (default true). */
  readsApart?: boolean;
  /** Data nothing needs after the process ends (`--memory`): no syncing to disk. */
  throwAway?: boolean;
  /** Called once if the storage is lost under the server: it must stop (decisions: Storage). */
  onLost?: (reason: string) => void;
  /** Runs inside every write transaction just before it commits (state that must commit with it). */
  beforeCommit?: (trx: Transaction<Database>) => Promise<void>;
  /** Runs after every write transaction that committed: the storage takes writes. */
  afterCommit?: () => void;
}

/**
 * How a snapshot file is written: the backend's own (SQLite: a database file, the default and the fast path), or JSON
 * Lines (text-snapshot.ts), which any backend loads.
 */
export type SnapshotFormat = 'sqlite' | 'json';

/** What a snapshot file says about itself (see SnapshotHooks.info). */
export interface SnapshotFileInfo {
  /** Told by the file's first bytes, whatever its name. */
  format: SnapshotFormat;
  /** A text snapshot holds no save time. */
  meta: { saved_at: string } | undefined;
}

/** Snapshots of the whole data set as files (decisions: Snapshots). */
export interface SnapshotHooks {
  /** The format a snapshot is saved in when none is asked for: the backend's own. */
  readonly nativeFormat: SnapshotFormat;
  /** Writes a consistent copy in `format` (default 'sqlite') to `target` (which must not exist), mode 0600, synced, while writes go on. */
  copy(target: string, meta: { saved_at: string }, format?: SnapshotFormat): Promise<void>;
  /** What the snapshot at `file` says about itself; throws SNAPSHOT_INVALID on `field` when it is not one. */
  info(file: string, field: string): SnapshotFileInfo;
  /** The snapshot at `file`, in either format, as data with this version's schema (at `work` when it is text, or older: loaded, or copied and migrated). */
  prepare(file: string, work: string, field: string): Promise<{ path: string; migrated: boolean }>;
  /** Runs a read (the audit) over a prepared snapshot, apart from the request thread where possible. */
  read<A extends unknown[], R>(file: string, job: StorageJob<A, R>, ...args: A): Promise<R>;
  /** Lets go of what `prepare` made, once the restore is over whatever happened (PostgreSQL: its staging schema). */
  discard(path: string): Promise<void>;
  /** Replaces all the data with the prepared snapshot's, in one transaction; run it in `exclusive`. */
  replace(file: string, options: ReplaceOptions): Promise<void>;
  /** Whether `error` says the snapshot file is damaged (its fault, not the server's). */
  isDamaged(error: unknown): boolean;
  /** Whether `path` names the data of another running server (which a copy of the file would miss part of). */
  isServed(path: string): boolean;
}

export interface ReplaceOptions {
  /** Inside the transaction, before any row changes: read what must outlive the restore. */
  before(trx: Transaction<Database>): Promise<void>;
  /** Inside the transaction, after every table holds the snapshot's rows. */
  after(trx: Transaction<Database>): Promise<void>;
  /**
   * Check every foreign key before COMMIT (a third of the time at 100,000 transactions). A snapshot
   * this version saved holds together by construction; one from elsewhere, or migrated, is checked.
   */
  checkForeignKeys: boolean;
}

/** A driver error that means the storage refused a write: the disk is full, or the database cannot be written at all. */
export type StorageRefusal = { kind: 'full' } | { kind: 'unavailable'; reason: string };

/** What each backend says about its driver's errors (storage-errors.ts asks every backend: an error names its driver by its shape). */
export interface StorageErrors {
  storageFailure(error: unknown): StorageRefusal | undefined;
  /** True when the error is the database refusing a UNIQUE constraint (a row with that key exists). */
  isUniqueViolation(error: unknown): boolean;
}
