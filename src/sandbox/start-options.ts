/**
 * The options of `sandbox start` (and of the in-process `startSandbox`) that are checked before any
 * server code loads: the parent of a detached sandbox reports them as usage errors (exit 2) itself.
 * Each throws RangeError with a message naming the flag.
 */
import { isAbsolute, resolve } from 'node:path';
import { SNAPSHOT_NAME, SNAPSHOT_NAME_RULE } from '../api/snapshot-name.js';
import { LATEST_CLOCK_MS } from '../engine/clock.js';

/** Where a seeded sandbox's clocks start unless told otherwise (decisions: Seeds and reproducibility). */
export const DEFAULT_SEEDED_CLOCK_START = '2026-01-01T00:00:00Z';

export interface ClockChoice {
  seed?: string | undefined;
  clock?: string | undefined;
  clockStart?: string | undefined;
}

/**
 * The instant (ms) a manual clock starts at, or undefined for real time: `--seed` implies a manual
 * clock from 2026-01-01T00:00:00Z; `--clock-start` implies a manual clock; `--clock real` keeps real
 * time (a start is then refused). Throws RangeError with a message naming the flag.
 * @example manualClockStart({ seed: '7' }) // Date.parse('2026-01-01T00:00:00Z')
 */
export function manualClockStart(choice: ClockChoice): number | undefined {
  if (choice.clock !== undefined && choice.clock !== 'real' && choice.clock !== 'manual')
    throw new RangeError('--clock must be real or manual');
  if (choice.clock === 'real') {
    if (choice.clockStart !== undefined)
      throw new RangeError('--clock-start needs a manual clock: leave out --clock real');
    return undefined;
  }
  if (choice.clock !== 'manual' && choice.seed === undefined && choice.clockStart === undefined) return undefined;
  const start = choice.clockStart ?? DEFAULT_SEEDED_CLOCK_START;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(start)
    ? Date.parse(start)
    : Number.NaN;
  if (!Number.isFinite(ms))
    throw new RangeError(
      `--clock-start "${start}" must be an ISO 8601 instant with a time zone, like 2026-01-01T00:00:00Z`,
    );
  if (ms > LATEST_CLOCK_MS)
    throw new RangeError(`--clock-start "${start}" must be no later than ${new Date(LATEST_CLOCK_MS).toISOString()}`);
  return ms;
}

/** How much longer than the webhook timeout a begun attempt holds its delivery by default: time to record its outcome. */
export const DEFAULT_LEASE_MARGIN_SECONDS = 15;
const MAX_WEBHOOK_LEASE_SECONDS = 3600;

/**
 * `--webhook-lease`: where servers share a database, how long a begun attempt holds its delivery.
 * No shorter than an attempt may run: another server would find the delivery due while this one
 * still has it out, and send it again. Undefined gives the default, the timeout + 15 s.
 * @example webhookLease(undefined, 15) // 30
 */
export function webhookLease(seconds: number | undefined, timeoutSeconds: number, name = '--webhook-lease'): number {
  if (seconds === undefined) return timeoutSeconds + DEFAULT_LEASE_MARGIN_SECONDS;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds > MAX_WEBHOOK_LEASE_SECONDS)
    throw new RangeError(`${name} must be a number of seconds, at most ${MAX_WEBHOOK_LEASE_SECONDS}`);
  if (!(seconds > timeoutSeconds)) {
    throw new RangeError(
      `${name} (${seconds} s) must be longer than the webhook timeout (${timeoutSeconds} s): ` +
        `a lease that ends while an attempt may still be out lets another server send it again`,
    );
  }
  return seconds;
}

/** A seed as the sandbox takes it: a whole number, 0 to 2^53 − 1 (`--seed`, LEDGER_SEED). */
export function parseSeed(seed: string | number): string {
  const text = String(seed).trim();
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new RangeError(`--seed "${seed}" must be a whole number from 0 to 9007199254740991`);
  return String(Number(text));
}

/** A port to listen on, 0 for one the system picks (`--port`). */
export function parsePort(port: string): number {
  if (!/^\d{1,5}$/.test(port.trim()) || Number(port) > 65535)
    throw new RangeError(`--port "${port}" must be a number from 0 to 65535 (0: one the system picks)`);
  return Number(port);
}

/** `--api-key`: a test key of the form the sandbox issues (`svc_test_` and 32 base62 characters). */
export function parseApiKey(key: string): string {
  if (!/^svc_test_[0-9A-Za-z]{32}$/.test(key))
    throw new RangeError(
      '--api-key must be svc_test_ followed by 32 letters and digits (a live key is never accepted)',
    );
  return key;
}

/** Standard Webhooks: `whsec_` and canonical base64 (padded to a multiple of 4). */
const WEBHOOK_SECRET = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;

/**
 * `--webhook-secret`: a signing secret in the Standard Webhooks format, `whsec_` and the base64 of
 * 24 to 64 bytes (the range the specification asks of a secret), like the ones the sandbox makes.
 * @example parseWebhookSecret(`whsec_${randomBytes(32).toString('base64')}`)
 */
export function parseWebhookSecret(secret: string): string {
  const bytes = WEBHOOK_SECRET.exec(secret)?.[1];
  const length = bytes === undefined ? 0 : Buffer.from(bytes, 'base64').length;
  if (length < 24 || length > 64)
    throw new RangeError(
      '--webhook-secret must be whsec_ followed by the base64 of 24 to 64 bytes (the Standard Webhooks format)',
    );
  return secret;
}

/** `--snapshot`: a name saved with `snapshot save`, or a path to a snapshot file (anything with a /). */
export function parseSnapshotTarget(value: string, cwd: string): { name: string } | { file: string } {
  if (value.includes('/') || isAbsolute(value)) return { file: resolve(cwd, value) };
  if (!SNAPSHOT_NAME.test(value))
    throw new RangeError(`--snapshot "${value}" ${SNAPSHOT_NAME_RULE}, or is a path with a /`);
  return { name: value };
}
