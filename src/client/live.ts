import type { ClientConfig } from './config.js';
import { UsageError } from './errors.js';
import { isLoopback } from './loopback.js';

/**
 * The guards of a live service (a `svc_live_` key, or a profile marked live), checked before
 * anything is sent: the command must say --live; a command that works only against a sandbox is
 * refused; and every request that changes something is confirmed, by typing what will happen at a
 * terminal or by --yes in a script (live.ts's rules; the typed question itself is in cli/prompts.ts).
 */

/** Writes that change nothing: name enquiry is a POST only because it carries a body. */
const READS_BY_POST = new Set(['POST /v1/banks/resolve', 'POST /sandbox/analyse']);

export const isWrite = (method: string, path: string): boolean =>
  method !== 'GET' && method !== 'HEAD' && !READS_BY_POST.has(`${method} ${path.split('?')[0]}`);

/** Refused before any request: a live key without --live (LIVE_KEY, exit 2). */
export function requireLiveFlag(config: ClientConfig, live: boolean | undefined): void {
  if (!config.live || live) return;
  const what = config.profile ? `profile ${config.profile} is live` : 'the API key is a live key (svc_live_)';
  throw new UsageError(
    `${what}: ${config.baseUrl} (from ${config.from}) moves real money, so every command against it needs --live; nothing was sent`,
    'LIVE_KEY',
  );
}

/** A command of the sandbox alone, against a live key (SANDBOX_ONLY, exit 2), before any request. */
export function sandboxOnlyRefusal(command: string, config: ClientConfig, why: string): UsageError {
  return new UsageError(
    `\`${command}\` works only against a ledger sandbox, and ${config.baseUrl} (from ${config.from}) ${why}; nothing was sent`,
    'SANDBOX_ONLY',
  );
}

/**
 * The one line that says where a command's requests go, when that is not this machine's sandbox:
 * `→ staging (https://…) · LIVE`. Shown above tables and before questions; undefined for a sandbox
 * on loopback reached without a profile (the everyday case, which needs no reminder).
 */
export function targetLine(config: ClientConfig): { text: string; live: boolean } | undefined {
  const host = URL.canParse(config.baseUrl) ? new URL(config.baseUrl).hostname : '';
  if (!config.live && !config.profile && isLoopback(host)) return undefined;
  const name = config.profile ?? config.from;
  return { text: `→ ${name} (${config.baseUrl}) · ${config.live ? 'LIVE' : 'test'}`, live: config.live };
}
