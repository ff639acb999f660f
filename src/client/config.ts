import { UnreachableError, UsageError } from './errors.js';
import { checkState, findStateFile, readState, readTrustedState } from './state.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** Where a value came from: a flag, the environment, the sandbox state file, or nowhere (the default URL). */
export type Source = 'flag' | 'env' | 'state' | 'default';

export interface ClientConfig {
  baseUrl: string;
  apiKey: string | undefined;
  /** Where the base URL came from. */
  source: Source;
  /** Where the key came from: a flag or the environment only with a URL given either way, the state file only with its own URL. */
  keySource: Exclude<Source, 'default'> | undefined;
  /** The sandbox state file found here or above (or in LEDGER_HOME), whether or not its values are used. */
  stateFile: string | undefined;
  /** The certificate fingerprint that the state file pins for its own URL (https only): see http.ts `open`. */
  tlsFingerprint?: string | undefined;
}

export interface ConfigSources {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Where requests go and with which key. A key is sent only to the URL from the same source: one
 * given (--api-key, LEDGER_API_KEY) only to a URL given (--base-url, LEDGER_BASE_URL), the state
 * file's only to the state file's URL, and the state file counts only when checkState trusts it.
 * A given key without a given URL is refused (BASE_URL_REQUIRED) rather than sent to a URL that a
 * file chose. Flags win over the environment.
 * @example resolveConfig({ env: process.env, cwd: process.cwd() })
 */
export function resolveConfig(sources: ConfigSources): ClientConfig {
  // Commander fills a flag from its environment variable: the same value is the environment's.
  const url = given(sources.baseUrl, sources.env.LEDGER_BASE_URL);
  const key = given(sources.apiKey, sources.env.LEDGER_API_KEY);
  const stateFile = findStateFile(sources.cwd, sources.env);
  if (url) {
    const baseUrl = checked(url.value);
    if (key) return { baseUrl, apiKey: key.value, source: url.source, keySource: key.source, stateFile };
    // `--base-url` naming the state file's own sandbox is the same destination, so its key may go there.
    const { state, problem } = stateFile ? checkState(stateFile) : { state: undefined, problem: undefined };
    const own = !problem && typeof state?.base_url === 'string' && sameUrl(state.base_url, baseUrl);
    return { baseUrl, apiKey: own ? state.api_key : undefined, source: url.source, keySource: own ? 'state' : undefined, stateFile, tlsFingerprint: own ? state.tls_fingerprint : undefined };
  }
  if (key) throw new UsageError(keyWithoutUrl(key.source, stateFile), 'BASE_URL_REQUIRED');
  const state = stateFile ? readTrustedState(stateFile) : undefined;
  if (!state?.base_url) return { baseUrl: DEFAULT_BASE_URL, apiKey: undefined, source: 'default', keySource: undefined, stateFile };
  return { baseUrl: checked(state.base_url), apiKey: state.api_key, source: 'state', keySource: 'state', stateFile, tlsFingerprint: state.tls_fingerprint };
}

/**
 * A request without a key can only be refused, so a command that needs one says what is missing
 * instead: no sandbox state here (exit 3, with how to start one), or a base URL without a key (exit 2).
 */
export function requireKey(config: ClientConfig, env: NodeJS.ProcessEnv, cwd: string): string {
  if (config.apiKey) return config.apiKey;
  if (config.source === 'flag' || config.source === 'env') {
    const state = config.stateFile ? readState(config.stateFile) : undefined;
    const elsewhere = state?.base_url ? `; the key in ${config.stateFile} is sent only to ${state.base_url}` : '';
    throw new UsageError(`no API key for ${config.baseUrl}: set LEDGER_API_KEY (or pass --api-key)${elsewhere}`);
  }
  const where = env.LEDGER_HOME ? `in LEDGER_HOME (${env.LEDGER_HOME})` : `in ${cwd} or a parent directory (.ledger/sandbox.json)`;
  throw new UnreachableError(
    `no sandbox state found ${where}: start one with \`ledger sandbox start --detach\`, set LEDGER_HOME to the .ledger folder of a running one, or set LEDGER_BASE_URL and LEDGER_API_KEY`,
    'NO_SANDBOX',
  );
}

function given(flag: string | undefined, fromEnv: string | undefined): { value: string; source: 'flag' | 'env' } | undefined {
  if (flag && flag !== fromEnv) return { value: flag, source: 'flag' };
  return fromEnv ? { value: fromEnv, source: 'env' } : undefined;
}

function keyWithoutUrl(source: 'flag' | 'env', stateFile: string | undefined): string {
  const [what, setUrl, dropKey] =
    source === 'env'
      ? ['LEDGER_API_KEY is set', 'set LEDGER_BASE_URL', 'unset LEDGER_API_KEY']
      : ['--api-key is given', 'pass --base-url', 'leave out --api-key'];
  const rule = 'a key you give is sent only to a URL you give (--base-url or LEDGER_BASE_URL)';
  if (!stateFile) return `${what} but no base URL is: ${rule}; ${setUrl} to the URL this key is for`;
  return `${what} but no base URL is: ${rule}, never to the one in ${stateFile}; ${setUrl} to the URL this key is for, or ${dropKey} to use ${stateFile} with its own key`;
}

/** The base URL without its trailing slashes, refused (exit 2) when it is not an http(s) URL. */
function checked(baseUrl: string): string {
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
  return baseUrl.replace(/\/+$/, '');
}

function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => (URL.canParse(url) ? new URL(url).href.replace(/\/+$/, '') : url);
  return normal(a) === normal(b);
}
