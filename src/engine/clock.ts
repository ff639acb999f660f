/** The only source of time in the engine. The sandbox injects a virtual clock; tests inject a fixed one. */
export interface Clock {
  now(): Date;
}

/** Real time plus an offset that only moves forward (the sandbox's virtual clock, contract §8). */
export class VirtualClock implements Clock {
  constructor(
    private offsetMs = 0,
    private readonly realNow: () => number = Date.now,
  ) {}

  now(): Date {
    return new Date(this.realNow() + this.offsetMs);
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  advance(seconds: number): void {
    if (!(seconds > 0)) throw new RangeError('the clock only moves forward');
    this.offsetMs += seconds * 1000;
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
