import { runDuePayouts } from '../engine/payouts/payouts.service.js';
import type { Sandbox } from './sandbox.js';

/** Runs whatever has fallen due on the sandbox clock: payout settlements today. */
export interface Scheduler {
  /** Runs everything due now; calls never overlap. Resolves with how much it ran. */
  runDue(): Promise<number>;
  /** Starts checking in real time (the running server; tests drive runDue through the clock instead). */
  start(): void;
  stop(): Promise<void>;
}

/** The due-work runners, in the order they run. */
const JOBS = [runDuePayouts];

export function createScheduler(sandbox: Sandbox, options: { intervalMs?: number; onError: (error: unknown) => void }): Scheduler {
  let chain: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;
  const runDue = () => {
    chain = chain
      .catch(() => 0)
      .then(async () => {
        let ran = 0;
        for (const job of JOBS) ran += await job(sandbox.db, sandbox.env);
        return ran;
      });
    return chain;
  };
  return {
    runDue,
    start() {
      timer ??= setInterval(() => runDue().catch(options.onError), options.intervalMs ?? 250);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await chain.catch(() => 0);
    },
  };
}
