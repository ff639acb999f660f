import { UnreachableError, UsageError } from './errors.js';
import { findStateFile, readState } from './state.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

export interface ClientConfig {
  baseUrl: string;
  apiKey: string | undefined;
  /** The state file the values came from, when they did. */
  stateFile: string | undefined;
  /** Where the base URL came from: a flag or LEDGER_BASE_URL, the state file, or nowhere (the default). */
  baseUrlFrom: 'given' | 'state' | 'default';
}

export interface ConfigSources {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Flags win over LEDGER_BASE_URL / LEDGER_API_KEY, which win over the state `sandbox start` wrote.
 * @example resolveConfig({ env: process.env, cwd: process.cwd() })
 */
export function resolveConfig(sources: ConfigSources): ClientConfig {
  const stateFile = findStateFile(sources.cwd, sources.env);
  const state = stateFile ? readState(stateFile) : undefined;
  const given = sources.baseUrl ?? sources.env.LEDGER_BASE_URL;
  const baseUrl = given ?? state?.base_url ?? DEFAULT_BASE_URL;
  const apiKey = sources.apiKey ?? sources.env.LEDGER_API_KEY ?? state?.api_key;
  let protocol: string;
  try {
    ({ protocol } = new URL(baseUrl));
  } catch {
    throw new UsageError(`base URL ${baseUrl} is not a URL (from --base-url, LEDGER_BASE_URL or the sandbox state)`);
  }
  // "localhost:4010" parses, as the scheme "localhost:": it was reported as a sandbox that cannot be reached (exit 3).
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`base URL ${baseUrl} is not an http:// or https:// URL (from --base-url, LEDGER_BASE_URL or the sandbox state): http://${baseUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}?`);
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    stateFile: sources.apiKey || sources.env.LEDGER_API_KEY ? undefined : stateFile,
    baseUrlFrom: given ? 'given' : state?.base_url ? 'state' : 'default',
  };
}

/**
 * A request without a key can only be refused, so a command that needs one says what is missing
 * instead: no sandbox state here (exit 3, with how to start one), or a base URL without a key (exit 2).
 */
export function requireKey(config: ClientConfig, env: NodeJS.ProcessEnv, cwd: string): string {
  if (config.apiKey) return config.apiKey;
  if (config.baseUrlFrom === 'given') throw new UsageError(`no API key for ${config.baseUrl}: set LEDGER_API_KEY (or pass --api-key)`);
  const where = env.LEDGER_HOME ? `in LEDGER_HOME (${env.LEDGER_HOME})` : `in ${cwd} or a parent directory (.ledger/sandbox.json)`;
  throw new UnreachableError(
    `no sandbox state found ${where}: start one with \`ledger sandbox start --detach\`, set LEDGER_HOME to the .ledger folder of a running one, or set LEDGER_BASE_URL and LEDGER_API_KEY`,
    'NO_SANDBOX',
  );
}
