import { describe, expect, it } from 'vitest';
import { runAdvance } from '../../src/commands/sandbox/clock-advance.js';
import { captureIo, commandIn, refusalLine } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';

// A manual clock, as --seed gives: it stands at 2026-11-21T09:30:00Z whatever real time is.
const t = useSandbox({ listen: true });

describe('ledger sandbox clock on a manual clock', () => {
  it('on a clock started at --clock-start it says what the advances add up to, not how far it is from real time', async () => {
    // --clock-start can be months from real time.
    const shown = async () => {
      const run = await commandIn('/nonexistent', ['sandbox', 'clock'], {
        env: { LEDGER_BASE_URL: t.baseUrl!, LEDGER_API_KEY: t.key },
      });
      return [run.exitCode, run.stdout];
    };
    expect(await shown()).toEqual([0, '2026-11-21T09:30:00.000Z  (never advanced)\n']);
    const advanced = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1' } });
    await runAdvance(advanced.io, '1h', {});
    expect(advanced.stdout()).toBe('2026-11-21T10:30:00.000Z  (advanced 3600 s in all)\n');
    expect(await shown()).toEqual([0, '2026-11-21T10:30:00.000Z  (advanced 3600 s in all)\n']);
  });
});

describe('ledger sandbox clock advance past the latest time a clock reaches', () => {
  const late = useSandbox({ listen: true, clockStart: Date.parse('9998-06-01T00:00:00Z') });
  it('a move past the latest time names <duration>, as the other refusals of the duration do, not the API field', async () => {
    const run = await commandIn('/nonexistent', ['sandbox', 'clock', 'advance', '3650d'], {
      env: { LEDGER_BASE_URL: late.baseUrl!, LEDGER_API_KEY: late.key },
    });
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      1,
      '',
      refusalLine(
        'Error [VALIDATION_ERROR]: <duration>: would move the clock past 9999-01-01T00:00:00.000Z, the latest time a sandbox clock reaches\n',
      ),
    ]);
  });
});
