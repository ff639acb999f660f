import type { Transaction } from 'kysely';
import type { Database, Db } from '../engine/db/database.js';
import { type Ids, isSeeded } from '../engine/ids.js';
import { getSetting, putSetting } from '../engine/settings/settings.repository.js';

/** Where a seeded stream stopped, per seed, written with every batch that moved it (decisions: Seeds and reproducibility). */
const SEED_POSITION = (seed: string) => `seed_position:${seed}`;

/**
 * Where the seeded stream stopped, kept with the data: a restart (or a restore) goes on from there
 * instead of making the same ids again. Random ids keep nothing.
 */
export interface SeedPosition {
  /** For StorageOptions.beforeCommit: stores the stream's position in a write that moved it. */
  beforeCommit: ((trx: Transaction<Database>) => Promise<void>) | undefined;
  /** For StorageOptions.afterCommit: the position staged is now the stored one. */
  committed(): void;
  /** Puts the stream where the data says it stopped (at open, and after a restore). */
  load(db: Db): Promise<void>;
}

/** @example const seed = seedPosition(ids); await openStorage({ ..., beforeCommit: seed.beforeCommit, afterCommit: seed.committed }); await seed.load(db); */
export function seedPosition(ids: Ids): SeedPosition {
  let saved = 0;
  let staged = 0;
  return {
    beforeCommit: isSeeded(ids)
      ? async (trx) => {
          staged = ids.position;
          if (staged !== saved) await putSetting(trx, SEED_POSITION(ids.seed), String(staged));
        }
      : undefined,
    committed: () => (saved = staged),
    async load(db) {
      saved = staged = isSeeded(ids) ? Number((await getSetting(db, SEED_POSITION(ids.seed))) ?? 0) : 0;
      if (isSeeded(ids)) ids.position = saved;
    },
  };
}
