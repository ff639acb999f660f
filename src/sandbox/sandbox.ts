import { ClockRegistry } from '../engine/clocks.js';
import { type Clock, VirtualClock } from '../engine/clock.js';
import type { Transaction } from 'kysely';
import type { Database, Db } from '../engine/db/database.js';
import { openStorage } from '../engine/db/open-storage.js';
import type { Storage, StorageOptions } from '../engine/db/storage.js';
import { storageFailure } from '../engine/db/storage-errors.js';
import { SANDBOX_BUSINESS_NAME, createDeveloper } from '../engine/developers/developers.service.js';
import { authenticate, issueKey } from '../engine/developers/keys.js';
import { DEFAULT_SETTLEMENT_DELAY_SECONDS, type EngineEnv } from '../engine/env.js';
import { LedgerError } from '../engine/errors.js';
import { CANCELLED_BY_RESTORE, INTERRUPTED_BY_SNAPSHOT, INTERRUPTED_BY_STOP, type InterruptedScope, recordInterruptedAttempts } from '../engine/events/interrupted-attempts.js';
import type { WebhookLogRow } from '../engine/events/webhook-logs.repository.js';
import { cryptoIds, type Ids, isSeeded, seededIds } from '../engine/ids.js';
import type { NarrationAnalyser } from '../engine/intelligence/analyser.js';
import { getSetting, putSetting } from '../engine/settings/settings.repository.js';

/** The setting that names the developer created at first start: the sandbox's owner. */
export const SANDBOX_DEVELOPER = 'sandbox_developer_id';
/** Where a seeded stream stopped, per seed, written with every batch that moved it (decisions: Seeds and reproducibility). */
const SEED_POSITION = (seed: string) => `seed_position:${seed}`;

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
  /** Runs a write in a transaction shared with the writes that arrive beside it (Storage.write). */
  write: Storage['write'];
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
  advanceClock(
    developerId: string,
    seconds: number,
    alongside?: (trx: Transaction<Database>, advanced: Clock, offsetMs: number) => Promise<void>,
    walk?: (to: (instantMs: number) => boolean) => Promise<void>,
  ): Promise<VirtualClock>;
  /**
   * Calls `listener` after every write batch that committed (the storage works), with the webhook
   * deliveries the batch wrote (see StorageOptions.afterCommit).
   */
  onCommit(listener: (fresh: WebhookLogRow[]) => void): void;
  /** Set once the database file was removed, replaced or truncated under the server. */
  lost(): string | undefined;
  close(): Promise<void>;
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
  const committed: ((fresh: WebhookLogRow[]) => void)[] = [() => (savedPosition = stagedPosition)];
  let savedPosition = 0;
  let stagedPosition = 0;
  const storage = await openStorage({
    location: options.dbPath,
    ...(options.postgres ? { postgres: options.postgres } : {}),
    underLoad: options.backgroundCheckpoints ?? false,
    throwAway: options.throwAway ?? false,
    readsApart: options.readsOffThread ?? true,
    onLost: (reason) => options.onLost?.(reason),
    afterCommit: (fresh) => committed.forEach((listener) => listener(fresh)),
    beforeCommit: isSeeded(ids)
      ? async (trx) => {
          stagedPosition = ids.position;
          if (stagedPosition !== savedPosition) await putSetting(trx, SEED_POSITION(ids.seed), String(stagedPosition));
        }
      : undefined,
  });
  const db = storage.db;
  const clockStart = options.clockStart;
  const realNow = clockStart === undefined ? options.realNow : () => clockStart;
  const clocks = await ClockRegistry.load(db, realNow);
  // Where the seeded stream stopped: a restart goes on from there instead of making the same ids again.
  const seedPosition = async (): Promise<number> => (isSeeded(ids) ? Number((await getSetting(db, SEED_POSITION(ids.seed))) ?? 0) : 0);
  savedPosition = stagedPosition = await seedPosition();
  if (isSeeded(ids)) ids.position = savedPosition;
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
  // Nothing is out yet: an attempt the database counts without its row was out when the last process died.
  // A database that takes no writes (a full disk) keeps it counted without its row until one that does.
  // Where other servers share it, only attempts whose lease has passed: the others may be theirs, out now.
  const recordInterrupted = (error: string, scope?: InterruptedScope) =>
    db
      .transaction()
      .execute((trx) => recordInterruptedAttempts(trx, error, (id) => envFor(id).clock.now(), scope))
      .catch((failure: unknown) => {
        if (!storageFailure(failure)) throw failure;
      });
  await recordInterrupted(INTERRUPTED_BY_STOP, { lapsedOnly: storage.shared });

  const restored: (() => void | Promise<void>)[] = [];
  /** Restores so far: a clock's walk (advanceClock) stops at one. */
  let restores = 0;
  /** Restores begun and ended (Sandbox.restoreEpoch): odd while one runs. */
  let epoch = 0;
  /** Each developer's clock advance under way, the next one waits for (advanceClock). */
  const advancing = new Map<string, Promise<void>>();
  /** Developers held back, each with the promise that settles when the last hold on it is released. */
  const held = new Map<string, Promise<void>>();
  const systemEnv: EngineEnv = { ...shared, clock: new VirtualClock(0, realNow) };
  const writes = storage;
  return {
    storage,
    db,
    dbPath: options.dbPath,
    ids,
    clockMode: clockStart === undefined ? 'real' : 'manual',
    envFor,
    clockFor: (developerId) => clocks.clockFor(developerId),
    systemEnv,
    developerIds: () => clocks.developerIds(),
    refresh: storage.shared ? (developerId) => clocks.sync(db, (id) => advancing.has(id), developerId) : async () => {},
    write: writes.write,
    exclusive: writes.exclusive,
    hold(developerId) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const previous = held.get(developerId);
      const mine = (previous ?? Promise.resolve()).then(() => released);
      held.set(developerId, mine);
      return () => {
        release();
        if (held.get(developerId) === mine) held.delete(developerId);
      };
    },
    whenFree: (developerId) => held.get(developerId) ?? Promise.resolve(),
    isHeld: (developerId) => held.has(developerId),
    async restore(replace) {
      // A reset under way would go on removing rows from the restored state: it finishes first.
      await Promise.all([...held.values()]);
      epoch += 1;
      try {
        const result = await writes.exclusive(async () => {
          let value;
          try {
            value = await replace();
          } catch (error) {
            // The attempts the restore cancelled stay counted in the data it left: each gets its row.
            await recordInterrupted(CANCELLED_BY_RESTORE);
            throw error;
          }
          for (const id of await clocks.restore(db)) envs.delete(id);
          restores += 1;
          savedPosition = stagedPosition = await seedPosition();
          if (isSeeded(ids)) ids.position = savedPosition;
          // Before any write of the restored state, on its clocks: nothing is out now (the caller quiesced).
          await recordInterrupted(INTERRUPTED_BY_SNAPSHOT);
          return value;
        });
        for (const listener of restored) await listener();
        return result;
      } finally {
        epoch += 1;
      }
    },
    restoreEpoch: () => epoch,
    onRestore: (listener) => restored.push(listener),
    advanceClock(developerId, seconds, alongside, walk) {
      const run = async () => {
        let restoresBefore = restores;
        const offset = await writes.write(async (trx) => {
          // Counted in the write: a restore that ran before it is the state it moves.
          restoresBefore = restores;
          const staged = await clocks.stageAdvance(trx, developerId, seconds);
          const current = clocks.clockFor(developerId);
          await alongside?.(trx, { now: () => new Date(current.now().getTime() + staged - current.offsetMs) }, staged);
          return staged;
        }, developerId);
        try {
          if (walk) {
            const clock = clocks.clockFor(developerId);
            await walk((instantMs) => {
              // The offset at which the clock reads that instant (its real time is now() less its offset).
              const step = instantMs - (clock.now().getTime() - clock.offsetMs);
              if (restores !== restoresBefore || step >= offset) return false;
              clock.setOffset(step);
              return true;
            });
          }
        } finally {
          // The move has committed: a walk that failed midway leaves the clock at the stored offset,
          // not at an instant between. A restore meanwhile set every clock to the restored state's:
          // this move is not part of it.
          if (restores === restoresBefore) clocks.commitAdvance(developerId, offset);
        }
        return clocks.clockFor(developerId);
      };
      const turn = (advancing.get(developerId) ?? Promise.resolve()).then(run, run);
      const settled = turn.then(
        () => undefined,
        () => undefined,
      );
      advancing.set(developerId, settled);
      void settled.then(() => advancing.get(developerId) === settled && advancing.delete(developerId));
      return turn;
    },
    onCommit: (listener) => committed.push(listener),
    lost: () => storage.lost(),
    close: () => storage.close(),
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
export async function ensureSandboxDeveloper(sandbox: Sandbox, knownKey?: string, fixedKey?: string, { reissue = true }: { reissue?: boolean } = {}): Promise<SandboxCredentials> {
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
      if (fixedKey && owner) throw new LedgerError('VALIDATION_ERROR', 'the API key given is the key of another developer in this database', [{ field: 'api_key', message: 'belongs to another developer' }]);
    }
    if (!fixedKey && !reissue) return { developerId, apiKey: undefined, issued: false };
    return { developerId, apiKey: await issueKey(trx, sandbox.envFor(developerId), developerId, fixedKey), issued: true };
  }, OWNER_LANE);
}

/** The id of the developer created at first start, the sandbox's owner (decisions: Snapshots). */
export async function sandboxOwnerId(sandbox: Sandbox): Promise<string | undefined> {
  return getSetting(sandbox.db, SANDBOX_DEVELOPER);
}
