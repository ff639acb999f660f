/** The only source of time in the engine. The sandbox injects a virtual clock; tests inject a fixed one. */
export interface Clock {
  now(): Date;
}

/**
 * The latest instant a sandbox clock is moved to (ms): 9999-01-01T00:00:00.000Z. Past the year 9999
 * an ISO 8601 time needs six digits and a sign (`+010000-…`), which no client of the API's time
 * format (`2026-11-21T09:30:00.000Z`) reads; the year left over is for real time to pass.
 */
export const LATEST_CLOCK_MS = Date.UTC(9999, 0, 1);

/** Real time plus an offset that only moves forward: a developer's virtual clock (decisions: Tenancy, clocks and reset). */
export class VirtualClock implements Clock {
  constructor(
    private offset = 0,
    private readonly realNow: () => number = Date.now,
  ) {}

  now(): Date {
    return new Date(this.realNow() + this.offset);
  }

  get offsetMs(): number {
    return this.offset;
  }

  get offsetSeconds(): number {
    return this.offset / 1000;
  }

  advance(seconds: number): void {
    if (!(seconds > 0)) throw new RangeError('the clock only moves forward');
    this.offset += seconds * 1000;
  }

  /** Sets the offset read back from storage; never backwards. */
  setOffset(offsetMs: number): void {
    if (offsetMs > this.offset) this.offset = offsetMs;
  }

  /**
   * Sets the offset exactly, backwards too. Only a snapshot restore does this: the whole sandbox
   * goes back to an earlier state, and its clocks go back with it, so what was due then is due again.
   */
  restoreOffset(offsetMs: number): void {
    this.offset = offsetMs;
  }
}

/** A clock that stands still until told to move: deterministic tests. */
export class ManualClock implements Clock {
  private ms: number;

  constructor(start: Date | string = '2026-11-21T09:30:00.000Z') {
    this.ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}
