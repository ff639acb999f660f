import type { Transaction } from 'kysely';
import type { ClockRegistry } from '../engine/clocks.js';
import type { Clock, VirtualClock } from '../engine/clock.js';
import type { Database } from '../engine/db/database.js';
import type { Work } from '../engine/db/storage.js';

/** Moves one developer's clock forward (Sandbox.advanceClock says how). */
export type AdvanceClock = (
  developerId: string,
  seconds: number,
  alongside?: (trx: Transaction<Database>, advanced: Clock, offsetMs: number) => Promise<void>,
  walk?: (to: (instantMs: number) => boolean) => Promise<void>,
) => Promise<VirtualClock>;

/** Sandbox.advanceClock, and whether a developer's advance is under way (a shared database's refresh leaves that clock alone). */
export interface ClockAdvances {
  advanceClock: AdvanceClock;
  isAdvancing(developerId: string): boolean;
}

/**
 * One developer's advances run one at a time. `restores` counts restores so far: an advance whose
 * write ran before a restore is no part of the restored state, and its walk stops at one.
 * @example const advances = clockAdvances(clocks, write, () => restores);
 */
export function clockAdvances(
  clocks: ClockRegistry,
  write: <T>(work: Work<T>, lane?: string) => Promise<T>,
  restores: () => number,
): ClockAdvances {
  /** Each developer's clock advance under way, the next one waits for. */
  const advancing = new Map<string, Promise<void>>();
  const advanceClock: AdvanceClock = (developerId, seconds, alongside, walk) => {
    const run = async (): Promise<VirtualClock> => {
      let restoresBefore = restores();
      const offset = await write(async (trx) => {
        // Counted in the write: a restore that ran before it is the state it moves.
        restoresBefore = restores();
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
            if (restores() !== restoresBefore || step >= offset) return false;
            clock.setOffset(step);
            return true;
          });
        }
      } finally {
        // The move has committed: a walk that failed midway leaves the clock at the stored offset,
        // not at an instant between. A restore meanwhile set every clock to the restored state's:
        // this move is not part of it.
        if (restores() === restoresBefore) clocks.commitAdvance(developerId, offset);
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
  };
  return { advanceClock, isAdvancing: (developerId) => advancing.has(developerId) };
}
