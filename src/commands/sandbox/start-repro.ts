import { UsageError } from '../../client/errors.js';
import {
  manualClockStart,
  parseApiKey,
  parseSeed,
  parseSnapshotTarget,
  parseWebhookSecret,
} from '../../sandbox/start-options.js';
import type { Io } from '../../cli/io.js';

/** `sandbox start`'s reproducibility flags, checked: --seed, --clock, --clock-start, --api-key, --webhook-secret, --snapshot (with --force). */
export interface Reproducible {
  /** For the server (startServer). */
  server: {
    seed?: string;
    clockStart?: number;
    apiKey?: string;
    webhookSecret?: string;
    snapshot?: { name: string } | { file: string };
    forceSnapshot?: boolean;
  };
  /** The same flags for a detached child (the key and the secret are not among them: see `env`). */
  args: string[];
  /** The chosen key and secret for a detached child, through its environment, so `ps` never shows them. */
  env: Record<string, string>;
  /** Lines for the start banner. */
  banner: string[];
}

/**
 * Checks the flags before any server code loads (a bad one is a usage error, exit 2, also for the
 * parent of a detached sandbox) and says how each reaches the server.
 * @example const repro = reproducible(io, { seed: '7' }); // manual clock from 2026-01-01T00:00:00Z
 */
export function reproducible(
  io: Io,
  options: {
    seed?: string;
    clock?: string;
    clockStart?: string;
    apiKey?: string;
    webhookSecret?: string;
    snapshot?: string;
    force?: boolean;
  },
): Reproducible {
  if (options.force && options.snapshot === undefined)
    throw new UsageError('--force goes with --snapshot: it loads a snapshot whose books do not balance');
  const forceSnapshot = Boolean(options.force);
  try {
    const seed = options.seed === undefined ? undefined : parseSeed(options.seed);
    const clockStart = manualClockStart({ seed, clock: options.clock, clockStart: options.clockStart });
    const apiKey = options.apiKey === undefined ? undefined : parseApiKey(options.apiKey);
    const webhookSecret = options.webhookSecret === undefined ? undefined : parseWebhookSecret(options.webhookSecret);
    const snapshot = options.snapshot === undefined ? undefined : parseSnapshotTarget(options.snapshot, io.cwd);
    const args = [
      ...(seed !== undefined ? ['--seed', seed] : []),
      ...(clockStart !== undefined
        ? ['--clock', 'manual', '--clock-start', new Date(clockStart).toISOString()]
        : options.clock
          ? ['--clock', options.clock]
          : []),
      ...(snapshot ? ['--snapshot', 'file' in snapshot ? snapshot.file : snapshot.name] : []),
      ...(forceSnapshot ? ['--force'] : []),
    ];
    const banner = [
      ...(seed !== undefined ? [`Seed      ${seed}`] : []),
      ...(clockStart !== undefined
        ? [
            `Clock     manual, from ${new Date(clockStart).toISOString()}: it moves only with \`ledger sandbox clock advance\``,
          ]
        : []),
      ...(snapshot
        ? [
            `Snapshot  ${'file' in snapshot ? snapshot.file : snapshot.name} (restored at start${forceSnapshot ? ', not audited: --force' : ''})`,
          ]
        : []),
    ];
    const env = {
      ...(apiKey ? { LEDGER_SANDBOX_API_KEY: apiKey } : {}),
      ...(webhookSecret ? { LEDGER_SANDBOX_WEBHOOK_SECRET: webhookSecret } : {}),
    };
    return { server: { seed, clockStart, apiKey, webhookSecret, snapshot, forceSnapshot }, args, env, banner };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
