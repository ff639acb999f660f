import { describe, expect, it } from 'vitest';
import { runChaos } from './harness.js';

/** `npm test` kills the sandbox 3 times; `npm run test:chaos` sets CHAOS_KILLS=20. */
const KILLS = Number(process.env.CHAOS_KILLS ?? 3);

describe('crash test', () => {
  it(`survives ${KILLS} SIGKILLs under mixed load: nothing acknowledged is lost, doubled or half-written`, async () => {
    const report = await runChaos({
      kills: KILLS,
      log: process.env.CHAOS_VERBOSE ? (line) => console.log(line) : undefined,
    });
    console.log(
      `chaos: ${report.kills} kills, ${report.operations} operations (${report.succeeded} succeeded, ${report.refused} refused), ` +
        `${report.duplicateDeliveries} duplicate webhook deliveries`,
    );
    expect(report.problems).toEqual([]);
    expect(report.succeeded).toBeGreaterThan(KILLS * 5);
  }, 600_000);
});
