import type { Trx } from './db/database.js';
import { LATEST_CLOCK_MS, VirtualClock } from './clock.js';
import { invalidField } from './errors.js';

/**
 * One virtual clock per developer (decisions: Tenancy, clocks and reset): real time plus that
 * developer's offset, which only moves forward and is kept in the database so time never runs
 * backwards across a restart. Clocks are read on every request, so they live in memory; the
 * database is written only when one moves. A developer the registry has not seen yet starts at
 * offset 0.
 * @example const clocks = await ClockRegistry.load(db); clocks.clockFor(developerId).now();
 */
export class ClockRegistry {
  private readonly clocks = new Map<string, VirtualClock>();

  private constructor(private readonly realNow: () => number) {}

  static async load(trx: Trx, realNow: () => number = Date.now): Promise<ClockRegistry> {
    const registry = new ClockRegistry(realNow);
    for (const row of await trx.selectFrom('developers').select(['id', 'clock_offset_ms']).execute()) {
      registry.clocks.set(row.id, new VirtualClock(row.clock_offset_ms, realNow));
    }
    return registry;
  }

  /** The developer's clock; the same object for the life of the registry. */
  clockFor(developerId: string): VirtualClock {
    let clock = this.clocks.get(developerId);
    if (!clock) {
      clock = new VirtualClock(0, this.realNow);
      this.clocks.set(developerId, clock);
    }
    return clock;
  }

  /** Every developer with a clock: the ones background work runs for. */
  developerIds(): string[] {
    return [...this.clocks.keys()];
  }

  /**
   * Moves one developer's clock forward. The new offset is written first (in the caller's
   * transaction); call `commitAdvance` once that transaction has committed.
   */
  async stageAdvance(trx: Trx, developerId: string, seconds: number): Promise<number> {
    // Whole milliseconds, as every time the sandbox shows: a step is rounded to the nearest one.
    const ms = Math.round(seconds * 1000);
    if (!(ms > 0)) throw new RangeError('the clock only moves forward');
    // From the stored offset, inside the transaction: two advances that share a commit both count,
    // and together stop at the latest instant a clock reaches (checked in the same statement).
    const row = await trx
      .updateTable('developers')
      .set((eb) => ({ clock_offset_ms: eb('clock_offset_ms', '+', ms) }))
      .where('id', '=', developerId)
      .where((eb) => eb(eb('clock_offset_ms', '+', ms), '<=', LATEST_CLOCK_MS - this.realNow()))
      .returning('clock_offset_ms')
      .executeTakeFirst();
    if (!row)
      throw invalidField(
        'seconds',
        `would move the clock past ${new Date(LATEST_CLOCK_MS).toISOString()}, the latest time a sandbox clock reaches`,
      );
    return row.clock_offset_ms;
  }

  commitAdvance(developerId: string, offsetMs: number): void {
    this.clockFor(developerId).setOffset(offsetMs);
  }

  /**
   * Reads clocks again as stored (all, or one developer's), where other servers share the database
   * and may have moved one, or restored a snapshot: each is set to its stored offset exactly, and
   * developers no longer stored are forgotten (reading all). `busy` skips a clock this server is
   * moving itself (its walk sets the clock step by step, and commits the stored offset at the end).
   * @example await clocks.sync(db, (id) => advancing.has(id));
   */
  async sync(trx: Trx, busy: (developerId: string) => boolean, developerId?: string): Promise<void> {
    let query = trx.selectFrom('developers').select(['id', 'clock_offset_ms']);
    if (developerId !== undefined) query = query.where('id', '=', developerId);
    const rows = await query.execute();
    if (developerId === undefined) {
      const present = new Set(rows.map((row) => row.id));
      for (const id of [...this.clocks.keys()]) if (!present.has(id) && !busy(id)) this.clocks.delete(id);
    }
    for (const row of rows) if (!busy(row.id)) this.clockFor(row.id).restoreOffset(row.clock_offset_ms);
  }

  /**
   * Reads every clock again after a snapshot restore replaced the database's contents: each clock
   * is set to its stored offset exactly (backwards too), and developers the restored state does not
   * have are forgotten. Returns the ids forgotten.
   */
  async restore(trx: Trx): Promise<string[]> {
    const rows = await trx.selectFrom('developers').select(['id', 'clock_offset_ms']).execute();
    const present = new Set(rows.map((row) => row.id));
    const forgotten = [...this.clocks.keys()].filter((id) => !present.has(id));
    for (const id of forgotten) this.clocks.delete(id);
    for (const row of rows) this.clockFor(row.id).restoreOffset(row.clock_offset_ms);
    return forgotten;
  }
}
