import { UsageError } from './errors.js';
import { findStateFile, readState } from './state.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

export interface ClientConfig {
  baseUrl: string;
  apiKey: string | undefined;
  /** The state file the values came from, when they did. */
  stateFile: string | undefined;
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
  const baseUrl = sources.baseUrl ?? sources.env.LEDGER_BASE_URL ?? state?.base_url ?? DEFAULT_BASE_URL;
  const apiKey = sources.apiKey ?? sources.env.LEDGER_API_KEY ?? state?.api_key;
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`base URL ${baseUrl} is not a URL (from --base-url, LEDGER_BASE_URL or the sandbox state)`);
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, stateFile: sources.apiKey || sources.env.LEDGER_API_KEY ? undefined : stateFile };
}
