import { VirtualClock } from '../engine/clock.js';
import type { Db } from '../engine/db/database.js';
import { closeDatabase, openDatabase } from '../engine/db/open.js';
import { SANDBOX_BUSINESS_NAME, createDeveloper } from '../engine/developers/developers.service.js';
import { authenticate, issueKey } from '../engine/developers/keys.js';
import { DEFAULT_SETTLEMENT_DELAY_SECONDS, type EngineEnv } from '../engine/env.js';
import { LedgerError } from '../engine/errors.js';
import { cryptoIds, type Ids } from '../engine/ids.js';
import { getSetting, putSetting } from '../engine/settings/settings.repository.js';
import { createGroupCommit, type GroupCommit } from './group-commit.js';

const CLOCK_OFFSET = 'clock_offset_ms';
const SANDBOX_DEVELOPER = 'sandbox_developer_id';

/** One running sandbox: its database, its virtual clock and the injected randomness. */
export interface Sandbox {
  db: Db;
  clock: VirtualClock;
  env: EngineEnv;
  /** Runs a write in a transaction shared with the writes that arrive beside it (group commit). */
  write: GroupCommit['write'];
  /** Moves the virtual clock forward and remembers the new offset across restarts. */
  advanceClock(seconds: number): Promise<void>;
  close(): Promise<void>;
}

export interface OpenSandboxOptions {
  /** A file path, or ':memory:'. */
  dbPath: string;
  ids?: Ids;
  /** Real time source; tests pin it so the virtual clock is deterministic. */
  realNow?: () => number;
  settlementDelaySeconds?: number | undefined;
  /** A server under load: checkpoint the WAL from a worker thread. */
  backgroundCheckpoints?: boolean;
}

/**
 * Opens (and migrates) the sandbox database and restores the virtual clock.
 * @example const sandbox = await openSandbox({ dbPath: ':memory:' });
 */
export async function openSandbox(options: OpenSandboxOptions): Promise<Sandbox> {
  const db = await openDatabase({ path: options.dbPath, backgroundCheckpoints: options.backgroundCheckpoints ?? false });
  const offset = Number((await getSetting(db, CLOCK_OFFSET)) ?? 0);
  const clock = new VirtualClock(offset, options.realNow);
  const env: EngineEnv = { clock, ids: options.ids ?? cryptoIds, settlementDelaySeconds: options.settlementDelaySeconds ?? DEFAULT_SETTLEMENT_DELAY_SECONDS };
  const writes = createGroupCommit(db);
  return {
    db,
    clock,
    env,
    write: writes.write,
    async advanceClock(seconds) {
      clock.advance(seconds);
      await putSetting(db, CLOCK_OFFSET, String(clock.offsetSeconds * 1000));
    },
    async close() {
      await writes.drain();
      await closeDatabase(db);
    },
  };
}

export interface SandboxCredentials {
  developerId: string;
  apiKey: string;
  /** True when this call made the key (first start, or the remembered key no longer works). */
  issued: boolean;
}

/**
 * Makes sure the SANDBOX developer exists and that the caller holds a working key for it.
 * Keys are stored hashed, so a key that was not remembered (or was rotated) is re-issued.
 * @example const { apiKey } = await ensureSandboxDeveloper(sandbox, state.apiKey);
 */
export async function ensureSandboxDeveloper(sandbox: Sandbox, knownKey?: string): Promise<SandboxCredentials> {
  const { db, env } = sandbox;
  return db.transaction().execute(async (trx) => {
    const developerId = await getSetting(trx, SANDBOX_DEVELOPER);
    if (!developerId) {
      const created = await createDeveloper(trx, env, SANDBOX_BUSINESS_NAME);
      await putSetting(trx, SANDBOX_DEVELOPER, created.developer_id);
      return { developerId: created.developer_id, apiKey: created.api_key, issued: true };
    }
    if (knownKey) {
      try {
        if ((await authenticate(trx, knownKey)) === developerId) return { developerId, apiKey: knownKey, issued: false };
      } catch (error) {
        if (!(error instanceof LedgerError)) throw error;
      }
    }
    return { developerId, apiKey: await issueKey(trx, env, developerId), issued: true };
  });
}
