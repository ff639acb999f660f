import { vi } from 'vitest';

/**
 * `vi.waitFor` and `vi.waitUntil` wait for a condition, never for a fixed time; but their default
 * limit is one second, which a loaded CI machine (a file per core, each with its sandbox) can pass
 * before a child process or a server's first answer arrives. Every wait in the suite gets ten
 * seconds unless it names its own limit: a passing wait still returns as soon as its condition holds.
 */
export const WAIT_TIMEOUT_MS = 10_000;

const { waitFor, waitUntil } = vi;
const withLimit = <T extends { timeout?: number; interval?: number }>(options: number | T | undefined) =>
  typeof options === 'number' ? { timeout: options } : { timeout: WAIT_TIMEOUT_MS, ...options };
vi.waitFor = ((callback, options) => waitFor(callback, withLimit(options))) as typeof vi.waitFor;
vi.waitUntil = ((callback, options) => waitUntil(callback, withLimit(options))) as typeof vi.waitUntil;
