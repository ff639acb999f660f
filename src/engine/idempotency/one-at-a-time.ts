import { LedgerError } from '../errors.js';
import { type IdempotencyScope, scopeName } from './idempotency.service.js';

/** How long a duplicate waits for the first request with its key before answering IDEMPOTENCY_KEY_IN_USE. */
export const IN_FLIGHT_WAIT_MS = 10_000;

/**
 * Requests with one key run one at a time (decisions: Idempotency): the first runs; each duplicate waits for
 * it (up to IN_FLIGHT_WAIT_MS of real time), then finds its stored answer and replays it, and only
 * a duplicate that waited that long is IDEMPOTENCY_KEY_IN_USE. A lock per scope, in this process:
 * other servers on the same database are kept apart by the look-up inside the write
 * (`replayInWrite`), under the developer's lane.
 * @example const locks = new KeyLocks(Date.now); const unlock = await locks.hold(scope); try { … } finally { unlock(); }
 */
export class KeyLocks {
  private readonly held = new Map<string, Promise<void>>();

  /** `realNow`: the wait is for a request still running, so real time, never a developer's clock. */
  constructor(private readonly realNow: () => number) {}

  async hold(scope: IdempotencyScope): Promise<() => void> {
    const name = scopeName(scope);
    const deadline = this.realNow() + IN_FLIGHT_WAIT_MS;
    for (let current = this.held.get(name); current; current = this.held.get(name)) {
      const remaining = deadline - this.realNow();
      if (remaining <= 0)
        throw new LedgerError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being processed');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise((resolve) => (timer = setTimeout(resolve, remaining)))]);
      clearTimeout(timer);
    }
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.held.set(name, mine);
    return () => {
      if (this.held.get(name) === mine) this.held.delete(name);
      release();
    };
  }
}
