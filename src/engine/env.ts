import type { Clock } from './clock.js';
import type { Ids } from './ids.js';
import type { NarrationAnalyser } from './intelligence/analyser.js';

/** What every engine function needs besides the transaction: injected time and randomness. */
export interface EngineEnv {
  clock: Clock;
  ids: Ids;
  /**
   * Where API keys come from: never `ids`, so a seed can neither make a key guessable nor be moved
   * on by one (whether a start issues a key must not change the ids that follow). Default: the
   * system's random source.
   */
  keys?: Ids;
  /** Seconds of sandbox time between accepting a payout and the provider settling or failing it (default 2; 0 settles at once). */
  settlementDelaySeconds?: number;
  /** Reads inbound narrations (default: the offline rules analyser). */
  analyser?: NarrationAnalyser;
  /**
   * The same environment on another developer's clock: a flow that crosses developers (a payout
   * to another developer's virtual account) stamps what arrives on the receiver's clock.
   */
  forDeveloper?(developerId: string): EngineEnv;
}

/** The environment of `developerId`, or `env` itself when it has no per-developer clocks. */
export function envOf(env: EngineEnv, developerId: string): EngineEnv {
  return env.forDeveloper ? env.forDeveloper(developerId) : env;
}

export const DEFAULT_SETTLEMENT_DELAY_SECONDS = 2;

/** Version stamped on every event envelope (interface document, Versioning). */
export const API_VERSION = '2026-11-01';

/** The bank that holds the sandbox's virtual accounts (contract §5). */
export const VIRTUAL_BANK = { code: '035', name: 'Wema Bank' } as const;

/** No balance may leave the range where JavaScript numbers are exact. */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;
