import { nextDeliveryDueMs } from '../engine/events/webhook-logs.repository.js';
import { nextPayoutDueMs, runDuePayouts } from '../engine/payouts/payouts.service.js';
import type { Sandbox } from './sandbox.js';
import type { Dispatcher } from './webhooks/dispatcher.js';

/** Runs whatever has fallen due on each developer's clock: payout settlements and webhook deliveries. */
export interface Scheduler {
  /**
   * Runs everything of `developerId` (of every developer when left out) that is due now on its
   * clock; resolves with how much it ran.
   */
  runDue(developerId?: string): Promise<number>;
  /**
   * When the next of `developerId`'s work that `runDue` runs (a delivery or retry, a payout's
   * settlement) falls due after `afterMs` (epoch ms, on its clock); undefined when none waits.
   */
  nextDueAfter(developerId: string, afterMs: number): Promise<number | undefined>;
  /** Starts checking in real time (the running server; tests drive runDue through the clock instead). */
  start(): void;
  /** Resolves once no settlement runs (none starts for a developer the sandbox holds). */
  idle(): Promise<void>;
  /**
   * Lets the settlement under way finish and cancels the delivery attempts in flight (see
   * Dispatcher.quiesce), runs `work` (a snapshot restore) while nothing else of the scheduler's
   * runs, then carries on. `runDue` calls wait for it.
   */
  quiesce<T>(work: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Settlements run one at a time, in order; webhook deliveries run beside them through the
 * dispatcher, in one lane per developer, so a slow endpoint never holds up a settlement or another
 * developer's deliveries. `runDue` waits for both.
 */
export function createScheduler(
  sandbox: Sandbox,
  dispatcher: Dispatcher,
  options: { intervalMs?: number; onError: (error: unknown) => void },
): Scheduler {
  let chain: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;
  let quiet: Promise<unknown> | undefined;
  const settle = (developerIds: string[]) => {
    chain = chain
      .catch(() => 0)
      .then(async () => {
        let settled = 0;
        for (const id of developerIds)
          if (!sandbox.isHeld(id))
            settled += await runDuePayouts(sandbox.db, (work) => sandbox.write(work, id), sandbox.envFor(id), id);
        return settled;
      });
    return chain;
  };
  return {
    async runDue(developerId) {
      while (quiet) await quiet.catch(() => {});
      const settled = await settle(developerId ? [developerId] : sandbox.developerIds());
      return settled + (await dispatcher.dispatchDue(developerId));
    },
    async nextDueAfter(developerId, afterMs) {
      const due = await Promise.all([
        nextDeliveryDueMs(sandbox.db, developerId, afterMs),
        nextPayoutDueMs(sandbox.db, developerId, afterMs),
      ]);
      const times = due.filter((ms) => ms !== undefined);
      return times.length > 0 ? Math.min(...times) : undefined;
    },
    start() {
      timer ??= setInterval(() => {
        if (quiet) return;
        // Where servers share the database, a developer another server made, or a clock it moved, is seen here first.
        sandbox
          .refresh()
          .then(() => {
            settle(sandbox.developerIds()).catch(options.onError);
            dispatcher.tick();
          })
          .catch(options.onError);
      }, options.intervalMs ?? 250);
      timer.unref();
    },
    async idle() {
      await chain.catch(() => 0);
    },
    async quiesce(work) {
      while (quiet) await quiet.catch(() => {});
      const running = (async () => {
        await chain.catch(() => 0);
        return dispatcher.quiesce(work);
      })();
      quiet = running;
      try {
        return await running;
      } finally {
        quiet = undefined;
      }
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await chain.catch(() => 0);
      await dispatcher.stop();
    },
  };
}
