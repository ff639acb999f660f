import type { Clock } from './clock.js';
import type { Ids } from './ids.js';
import type { NarrationAnalyser } from './intelligence/analyser.js';

/** What every engine function needs besides the transaction: injected time and randomness. */
export interface EngineEnv {
  clock: Clock;
  ids: Ids;
  /**
   * Where API keys and webhook signing secrets come from: never `ids`, so a seed can neither make a
   * secret guessable nor be moved on by one (whether a start issues a key or is given a secret must
   * not change the ids that follow). Default: the system's random source.
   */
  secrets?: Ids;
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

/** The bank that holds the sandbox's virtual accounts (decisions: Resources and their defaults). */
export const VIRTUAL_BANK = { code: '035', name: 'Wema Bank' } as const;

/**
 * The most a wallet may hold, counting its pending payouts (which may come back as reversals): the
 * range where JavaScript numbers, and so every JSON client, are exact.
 */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

/**
 * The largest magnitude of a system account (provider_settlement, suspense_holding, fee_income,
 * dismissed), written as SQL. One of them holds a whole developer's money, the sum of any number of
 * wallets, so it is not held to a wallet's bound: it may use SQLite's 64-bit integers up to 2^63 − 2^53,
 * which leaves room for any one leg (at most 2^53 − 1), so `balance + delta` can never overflow.
 * That is about 1,023 wallets at MAX_BALANCE for one developer. These balances never leave the
 * database as JavaScript numbers, except in audit messages.
 */
export const MAX_SYSTEM_BALANCE_SQL = '9214364837600034816';
