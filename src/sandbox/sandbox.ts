import { ClockRegistry } from '../engine/clocks.js';
import { VirtualClock } from '../engine/clock.js';
import type { Db } from '../engine/db/database.js';
import { openStorage } from '../engine/db/open-storage.js';
import type { Storage, StorageOptions, Work, Written } from '../engine/db/storage.js';
import { storageFailure } from '../engine/db/storage-errors.js';
import { SANDBOX_BUSINESS_NAME, createDeveloper } from '../engine/developers/developers.service.js';
import { authenticate, issueKey } from '../engine/developers/keys.js';
import { DEFAULT_SETTLEMENT_DELAY_SECONDS, type EngineEnv } from '../engine/env.js';
import { LedgerError } from '../engine/errors.js';
import {
  CANCELLED_BY_RESTORE,
  INTERRUPTED_BY_SNAPSHOT,
  INTERRUPTED_BY_STOP,
  type InterruptedScope,
  recordInterruptedAttempts,
} from '../engine/events/interrupted-attempts.js';
import type { WebhookLogRow } from '../engine/events/webhook-logs.repository.js';
import { cryptoIds, type Ids, seededIds } from '../engine/ids.js';
import type { NarrationAnalyser } from '../engine/intelligence/analyser.js';
import { getSetting, putSetting } from '../engine/settings/settings.repository.js';
import { type AdvanceClock, clockAdvances } from './clock-advance.js';
import { createHolds, type Holds } from './holds.js';
import { type SeedPosition, seedPosition } from './seed-position.js';

/** The setting that names the developer created at first start: the sandbox's owner. */
export const SANDBOX_DEVELOPER = 'sandbox_developer_id';

/** How the developers' clocks run: real time plus each offset, or standing still until advanced (decisions: Seeds and reproducibility). */
export type ClockMode = 'real' | 'manual';

/** One running sandbox: its database, one virtual clock per developer, and the injected randomness. */
export interface Sandbox {
  /** The backend behind the storage seam: the write path, bulk work, snapshots, the storage's health. */
  storage: Storage;
  db: Db;
  /** The database file, or ':memory:'. */
  dbPath: string;
  ids: Ids;
  clockMode: ClockMode;
  /** The engine environment of one developer: its own clock (decisions: Tenancy, clocks and reset), the shared ids and settings. */
  envFor(developerId: string): EngineEnv;
  /** One developer's virtual clock (the same object for the life of the sandbox). */
  clockFor(developerId: string): VirtualClock;
  /** No developer's: for work before any developer exists (the first start). Real time, offset 0. */
  systemEnv: EngineEnv;
  /** Every developer the sandbox knows, for background work that runs per developer. */
  developerIds(): string[];
  /**
   * Where other servers share the database (Storage.shared): reads clocks again as stored, one
   * developer's (before each of its requests) or every one and who the developers are (before
   * background work). Elsewhere it does nothing: this server's memory is the truth.
   */
  refresh(developerId?: string): Promise<void>;
  /**
   * Runs a write in a transaction shared with the writes that arrive beside it (Storage.write) and
   * answers with its value once it has committed, after handing the webhook deliveries it made to
   * the `onDeliveries` listeners.
   */
  write<T>(work: Work<T>, lane?: string): Promise<T>;
  /** Holds one developer's lane against other servers (Storage.holdLane); its writes hand over their deliveries as `write`'s do. */
  holdLane(developerId: string): Promise<HeldLane>;
  /** Runs work alone between two write batches, with no transaction open (Storage.exclusive). */
  exclusive: Storage['exclusive'];
  /**
   * Holds one developer's requests back (they wait before they start) until the returned release
   * is called: for work on all of that developer's rows that its own requests must not see half
   * done or change meanwhile (a reset). Background work of that developer waits too.
   */
  hold(developerId: string): () => void;
  /** Resolves once the developer is not held (at once when it is not). */
  whenFree(developerId: string): Promise<void>;
  isHeld(developerId: string): boolean;
  /**
   * Replaces the database's contents (`replace` runs alone between two write batches), then reads
   * again what lives in memory: every clock, exactly, and where the seeded stream stood. Listeners
   * given to `onRestore` run after it.
   */
  restore<T>(replace: () => Promise<T>): Promise<T>;
  /** Calls `listener` after every restore (state kept in memory that the restore made stale); the restore waits for it. */
  onRestore(listener: () => void | Promise<void>): void;
  /**
   * Counts restores begun, odd while one runs (from before its data changes until its `onRestore`
   * listeners are done). A read outside the restore that saw the same even count before and after
   * read one state that every listener has caught up with.
   */
  restoreEpoch(): number;
  /**
   * Moves one developer's clock forward and remembers the new offset across restarts. `alongside`
   * runs in the same transaction, given the clock as it reads once the move has committed and its
   * offset (the route stores its idempotent answer there, so a crash cannot leave the move without it).
   *
   * `walk`, when given, runs once the move has committed and before the clock reads the new time:
   * it moves the clock through the instants between, in order, with `to`, which answers false
   * (the clock left where it is) for an instant not before the new time, or once a restore has
   * replaced the clocks; an instant the clock has reached already leaves it where it is. Then the
   * clock reads the new time. The stored offset is the new one throughout, so a sandbox stopped
   * midway starts at the new time, and a walk that throws leaves the clock there too. One
   * developer's advances run one at a time.
   */
  advanceClock: AdvanceClock;
  /** Calls `listener` after every write transaction that committed: the storage takes writes (StorageOptions.afterCommit). */
  onCommit(listener: () => void): void;
  /**
   * Calls `listener` with the webhook deliveries of every write that committed, in the order
   * written (Written), before the write's caller hears back: the dispatcher delivers them without
   * reading them back. A delivery it misses (a crash, a restart) is found by the due-deliveries query.
   */
  onDeliveries(listener: (deliveries: WebhookLogRow[]) => void): void;
  /** Set once the database file was removed, replaced or truncated under the server. */
  lost(): string | undefined;
  close(): Promise<void>;
}

/** A developer's lane held against other servers (Sandbox.holdLane). */
export interface HeldLane {
  write<T>(work: Work<T>): Promise<T>;
  release(): Promise<void>;
}

export interface OpenSandboxOptions {
  /** A file path, or ':memory:'. */
  dbPath: string;
  /** Derive every id, account number and reference from this seed, never a secret (decisions: Seeds and reproducibility); default: random. */
  seed?: string | undefined;
  /** A manual clock: every developer's clock stands at this instant (ms) plus its own offset, until advanced. */
  clockStart?: number | undefined;
  /** Real time source (default Date.now); ignored with `clockStart`. */
  realNow?: () => number;
  settlementDelaySeconds?: number | undefined;
  analyser?: NarrationAnalyser | undefined;
  /** A server under load: checkpoint the WAL from a worker thread. */
  backgroundCheckpoints?: boolean;
  /** Reads that scale with the data on a worker thread (default true; see openDatabase). */
  readsOffThread?: boolean;
  /** A file nothing needs after the process ends (`--memory`): no syncing to disk. */
  throwAway?: boolean;
  /** Called once if the database file is lost under the server: it must stop (decisions: Storage). */
  onLost?: (reason: string) => void;
  /** PostgreSQL's settings (pool size, statement timeout); ignored by SQLite. */
  postgres?: StorageOptions['postgres'];
}

/**
 * Opens (and migrates) the sandbox database and restores every developer's virtual clock.
 * @example const sandbox = await openSandbox({ dbPath: ':memory:' });
 */
export async function openSandbox(options: OpenSandboxOptions): Promise<Sandbox> {
  const ids = options.seed === undefined ? cryptoIds : seededIds(options.seed);
  const seed = seedPosition(ids);
  const committed: (() => void)[] = [seed.committed];
  const storage = await openSandboxStorage(options, seed, () => committed.forEach((listener) => listener()));
  const { db } = storage;
  const clockStart = options.clockStart;
  const realNow = clockStart === undefined ? options.realNow : () => clockStart;
  const clocks = await ClockRegistry.load(db, realNow);
  await seed.load(db);
  const engine = engineEnvs(ids, clocks, realNow, options);
  const recordInterrupted = interruptedRecorder(db, engine.envFor);
  // Where other servers share the database, only attempts whose lease has passed: the others may be theirs, out now.
  await recordInterrupted(INTERRUPTED_BY_STOP, { lapsedOnly: storage.shared });

  const deliveries = deliveryHandOver();
  const write = <T>(work: Work<T>, lane?: string) => deliveries.handOver(storage.write(work, lane));
  const holds = createHolds();
  const restores = restorer({ storage, clocks, seed, holds, forget: engine.forget, recordInterrupted });
  const advances = clockAdvances(clocks, write, restores.count);
  return {
    storage,
    db,
    dbPath: options.dbPath,
    ids,
    clockMode: clockStart === undefined ? 'real' : 'manual',
    envFor: engine.envFor,
    clockFor: (developerId) => clocks.clockFor(developerId),
    systemEnv: engine.systemEnv,
    developerIds: () => clocks.developerIds(),
    refresh: storage.shared ? (developerId) => clocks.sync(db, advances.isAdvancing, developerId) : async () => {},
    write,
    async holdLane(developerId) {
      const lane = await storage.holdLane(developerId);
      return { write: (work) => deliveries.handOver(lane.write(work)), release: () => lane.release() };
    },
    exclusive: storage.exclusive,
    hold: holds.hold,
    whenFree: holds.whenFree,
    isHeld: holds.isHeld,
    restore: restores.restore,
    restoreEpoch: restores.epoch,
    onRestore: restores.onRestore,
    advanceClock: advances.advanceClock,
    onCommit: (listener) => committed.push(listener),
    onDeliveries: deliveries.onDeliveries,
    lost: () => storage.lost(),
    close: () => storage.close(),
  };
}

/** The storage behind the sandbox, opened with what must commit with every write: where the seeded stream stands. */
function openSandboxStorage(
  options: OpenSandboxOptions,
  seed: SeedPosition,
  afterCommit: () => void,
): Promise<Storage> {
  return openStorage({
    location: options.dbPath,
    ...(options.postgres ? { postgres: options.postgres } : {}),
    underLoad: options.backgroundCheckpoints ?? false,
    throwAway: options.throwAway ?? false,
    readsApart: options.readsOffThread ?? true,
    onLost: (reason) => options.onLost?.(reason),
    afterCommit,
    beforeCommit: seed.beforeCommit,
  });
}

/** Every developer's engine environment: its own clock (decisions: Tenancy, clocks and reset), the shared ids and settings. */
function engineEnvs(ids: Ids, clocks: ClockRegistry, realNow: (() => number) | undefined, options: OpenSandboxOptions) {
  const envs = new Map<string, EngineEnv>();
  const envFor = (developerId: string): EngineEnv => {
    let env = envs.get(developerId);
    if (!env) {
      env = { ...shared, clock: clocks.clockFor(developerId) };
      envs.set(developerId, env);
    }
    return env;
  };
  const shared: Omit<EngineEnv, 'clock'> = {
    ids,
    secrets: cryptoIds,
    settlementDelaySeconds: options.settlementDelaySeconds ?? DEFAULT_SETTLEMENT_DELAY_SECONDS,
    ...(options.analyser ? { analyser: options.analyser } : {}),
    forDeveloper: envFor,
  };
  const systemEnv: EngineEnv = { ...shared, clock: new VirtualClock(0, realNow) };
  /** Drops the environments of developers whose clocks a restore replaced. */
  const forget = (developerIds: string[]) => developerIds.forEach((id) => envs.delete(id));
  return { envFor, systemEnv, forget };
}

type RecordInterrupted = (error: string, scope?: InterruptedScope) => Promise<unknown>;

/**
 * Records the attempts the database counts without their rows. Nothing is out yet where this runs:
 * such an attempt was out when the last process died (or the restore cancelled it). A database
 * that takes no writes (a full disk) keeps it counted without its row until one that does.
 */
function interruptedRecorder(db: Db, envFor: (developerId: string) => EngineEnv): RecordInterrupted {
  return (error, scope) =>
    db
      .transaction()
      .execute((trx) => recordInterruptedAttempts(trx, error, (id) => envFor(id).clock.now(), scope))
      .catch((failure: unknown) => {
        if (!storageFailure(failure)) throw failure;
      });
}

/**
 * The one way the webhook deliveries a write made leave it: once the write has committed, they go
 * to whoever listens (the dispatcher), in the order written, before the write's caller hears back.
 */
function deliveryHandOver() {
  const listeners: ((deliveries: WebhookLogRow[]) => void)[] = [];
  return {
    async handOver<T>(writing: Promise<Written<T>>): Promise<T> {
      const { value, deliveries } = await writing;
      if (deliveries.length > 0) listeners.forEach((listener) => listener(deliveries));
      return value;
    },
    onDeliveries: (listener: (deliveries: WebhookLogRow[]) => void) => void listeners.push(listener),
  };
}

interface RestoreDeps {
  storage: Storage;
  clocks: ClockRegistry;
  seed: SeedPosition;
  holds: Holds;
  forget: (developerIds: string[]) => void;
  recordInterrupted: RecordInterrupted;
}

/** Sandbox.restore, its listeners and its counts. */
function restorer({ storage, clocks, seed, holds, forget, recordInterrupted }: RestoreDeps) {
  const { db } = storage;
  const listeners: (() => void | Promise<void>)[] = [];
  /** Restores so far: a clock's walk (advanceClock) stops at one. */
  let restores = 0;
  /** Restores begun and ended (Sandbox.restoreEpoch): odd while one runs. */
  let epoch = 0;
  async function restore<T>(replace: () => Promise<T>): Promise<T> {
    // A reset under way would go on removing rows from the restored state: it finishes first.
    await holds.allReleased();
    epoch += 1;
    try {
      const result = await storage.exclusive(async () => {
        let value;
        try {
          value = await replace();
        } catch (error) {
          // The attempts the restore cancelled stay counted in the data it left: each gets its row.
          await recordInterrupted(CANCELLED_BY_RESTORE);
          throw error;
        }
        forget(await clocks.restore(db));
        restores += 1;
        await seed.load(db);
        // Before any write of the restored state, on its clocks: nothing is out now (the caller quiesced).
        await recordInterrupted(INTERRUPTED_BY_SNAPSHOT);
        return value;
      });
      for (const listener of listeners) await listener();
      return result;
    } finally {
      epoch += 1;
    }
  }
  return {
    restore,
    count: () => restores,
    epoch: () => epoch,
    onRestore: (listener: () => void | Promise<void>) => void listeners.push(listener),
  };
}

export interface SandboxCredentials {
  developerId: string;
  /** Undefined when the owner has a key this start does not know and may not replace (a shared database: `reissue: false`). */
  apiKey: string | undefined;
  /** True when this call made the key (first start, or the remembered key no longer works). */
  issued: boolean;
}

/** Whose writes create the sandbox's owner: servers starting together on one shared database make one. */
const OWNER_LANE = SANDBOX_DEVELOPER;

/**
 * Makes sure the SANDBOX developer exists and that the caller holds a working key for it.
 * Keys are stored hashed, so a key that was not remembered (or was rotated) is re-issued, unless
 * `reissue` is false: on a database several servers share, a new key would revoke the one every
 * other server's users hold, so a start that knows no working key serves without one. A `fixedKey`
 * (`sandbox start --api-key`) becomes the SANDBOX developer's only key.
 * @example const { apiKey } = await ensureSandboxDeveloper(sandbox, state.apiKey);
 */
export async function ensureSandboxDeveloper(
  sandbox: Sandbox,
  knownKey?: string,
  fixedKey?: string,
  { reissue = true }: { reissue?: boolean } = {},
): Promise<SandboxCredentials> {
  return sandbox.write(async (trx) => {
    const developerId = await getSetting(trx, SANDBOX_DEVELOPER);
    if (!developerId) {
      const created = await createDeveloper(trx, sandbox.systemEnv, SANDBOX_BUSINESS_NAME, fixedKey);
      await putSetting(trx, SANDBOX_DEVELOPER, created.developer_id);
      return { developerId: created.developer_id, apiKey: created.api_key, issued: true };
    }
    const wanted = fixedKey ?? knownKey;
    if (wanted) {
      const owner = await authenticate(trx, wanted).catch((error: unknown) => {
        if (error instanceof LedgerError) return undefined;
        throw error;
      });
      if (owner === developerId) return { developerId, apiKey: wanted, issued: false };
      if (fixedKey && owner)
        throw new LedgerError(
          'VALIDATION_ERROR',
          'the API key given is the key of another developer in this database',
          [{ field: 'api_key', message: 'belongs to another developer' }],
        );
    }
    if (!fixedKey && !reissue) return { developerId, apiKey: undefined, issued: false };
    return {
      developerId,
      apiKey: await issueKey(trx, sandbox.envFor(developerId), developerId, fixedKey),
      issued: true,
    };
  }, OWNER_LANE);
}

/** The id of the developer created at first start, the sandbox's owner (decisions: Snapshots). */
export async function sandboxOwnerId(sandbox: Sandbox): Promise<string | undefined> {
  return getSetting(sandbox.db, SANDBOX_DEVELOPER);
}
