import { runDuePayouts } from '../engine/payouts/payouts.service.js';
import type { Sandbox } from './sandbox.js';
import type { Dispatcher } from './webhooks/dispatcher.js';

/** Runs whatever has fallen due on the sandbox clock: payout settlements and webhook deliveries. */
export interface Scheduler {
  /** Runs everything due now; calls never overlap. Resolves with how much it ran. */
  runDue(): Promise<number>;
  /** Starts checking in real time (the running server; tests drive runDue through the clock instead). */
  start(): void;
  stop(): Promise<void>;
}

/**
 * Settlements run one at a time, in order; webhook deliveries run beside them through the
 * dispatcher, whose slow endpoints never hold up a settlement. `runDue` waits for both.
 */
export function createScheduler(sandbox: Sandbox, dispatcher: Dispatcher, options: { intervalMs?: number; onError: (error: unknown) => void }): Scheduler {
  let chain: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;
  const settle = () => {
    chain = chain.catch(() => 0).then(() => runDuePayouts(sandbox.db, sandbox.env));
    return chain;
  };
  return {
    async runDue() {
      const settled = await settle();
      return settled + (await dispatcher.dispatchDue());
    },
    start() {
      timer ??= setInterval(() => {
        settle().catch(options.onError);
        dispatcher.dispatchDue().catch(options.onError);
      }, options.intervalMs ?? 250);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await chain.catch(() => 0);
      await dispatcher.stop();
    },
  };
}
