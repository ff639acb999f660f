import { describe, expect, it } from 'vitest';
import { runAdvance } from '../../src/commands/sandbox/clock-advance.js';
import { captureIo, commandIn } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';

// A manual clock, as --seed gives: it stands at 2026-11-21T09:30:00Z whatever real time is.
const t = useSandbox({ listen: true });

describe('ledger sandbox clock on a manual clock', () => {
  it('seen: "2026-11-21T10:30:00.000Z  (3600 s ahead of real time)" on a clock that started at --clock-start, months from real time; it says what the advances add up to', async () => {
    const shown = async () => {
      const run = await commandIn('/nonexistent', ['sandbox', 'clock'], { env: { LEDGER_BASE_URL: t.baseUrl!, LEDGER_API_KEY: t.key } });
      return [run.exitCode, run.stdout];
    };
    expect(await shown()).toEqual([0, '2026-11-21T09:30:00.000Z  (never advanced)\n']);
    const advanced = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1' } });
    await runAdvance(advanced.io, '1h', {});
    expect(advanced.stdout()).toBe('2026-11-21T10:30:00.000Z  (advanced 3600 s in all)\n');
    expect(await shown()).toEqual([0, '2026-11-21T10:30:00.000Z  (advanced 3600 s in all)\n']);
  });
});
