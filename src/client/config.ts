import { UnreachableError, UsageError } from './errors.js';
import { isLoopback } from './loopback.js';
import { configFile, hasProfiles, isLiveKey, type Profile, profileNamed, type ProfilesFile } from './profiles.js';
import { checkState, findStateFile, readState, readTrustedState } from './state.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/**
 * Where a value came from, in the order of precedence: a flag, the profile named by --profile or
 * LEDGER_PROFILE, the environment, this folder's sandbox state file, the default profile
 * (`ledger profiles use`), or nowhere (the default URL).
 */
export type Source = 'flag' | 'profile' | 'env' | 'state' | 'default-profile' | 'default';

export interface ClientConfig {
  baseUrl: string;
  apiKey: string | undefined;
  /** Where the base URL came from. */
  source: Source;
  /** Where the key came from: never a source other than the URL's unless both name the same URL. */
  keySource: Exclude<Source, 'default'> | undefined;
  /** The sandbox state file found here or above (or in LEDGER_HOME), whether or not its values are used. */
  stateFile: string | undefined;
  /** The profile that named the URL (source `profile` or `default-profile`). */
  profile: string | undefined;
  /** The source as people read it: `--base-url`, `LEDGER_BASE_URL`, `profile staging (LEDGER_PROFILE)`, the state file's path. */
  from: string;
  /** A `svc_live_` key, or a profile marked live: every command needs --live. */
  live: boolean;
  /** An `http://` URL beyond loopback was allowed (--insecure, or a profile added with it). */
  insecure: boolean;
  /** The certificate fingerprint that the state file pins for its own URL (https only): see http.ts `open`. */
  tlsFingerprint?: string | undefined;
}

export interface ConfigSources {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  /** --profile (commander fills it from LEDGER_PROFILE too: the same value is the environment's). */
  profile?: string | undefined;
  insecure?: boolean | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The profiles file, read (loadProfiles) when `needsProfiles` says a profile may decide. */
  profiles?: ProfilesFile | undefined;
}

/**
 * Whether a profile may decide where requests go, so the profiles file must be read first: one is
 * named, or nothing above the default profile names a URL and the file exists.
 */
export function needsProfiles(sources: Omit<ConfigSources, 'profiles'>): boolean {
  if (given(sources.profile, sources.env.LEDGER_PROFILE)) return true;
  if (given(sources.baseUrl, sources.env.LEDGER_BASE_URL) || given(sources.apiKey, sources.env.LEDGER_API_KEY))
    return false;
  return !findStateFile(sources.cwd, sources.env) && hasProfiles(sources.env);
}

/**
 * Where requests go and with which key, by one order of precedence: flags (--base-url, --api-key),
 * then --profile or LEDGER_PROFILE, then LEDGER_BASE_URL with LEDGER_API_KEY, then this folder's
 * sandbox state, then the default profile. A key is sent only to the URL from the same source, or to
 * the same URL named twice: a key given (--api-key, LEDGER_API_KEY) goes only to a URL given
 * (--base-url, LEDGER_BASE_URL, or a profile named on this command line), the state file's only to
 * the state file's URL (and that file counts only when checkState trusts it), a profile's only to its
 * own URL. A given key without a given URL is refused (BASE_URL_REQUIRED) rather than sent to a URL
 * that a file chose. A non-loopback `http://` URL is refused (INSECURE_URL) unless --insecure or the
 * profile allows it.
 * @example resolveConfig({ env: process.env, cwd: process.cwd() })
 */
export function resolveConfig(sources: ConfigSources): ClientConfig {
  const config = resolveSource(sources);
  // The state file's sandbox, however its URL was reached (the state, `--base-url`, the exports of
  // `sandbox env`), is held to the certificate the state file pins.
  const { state, problem } = config.stateFile ? checkState(config.stateFile) : { state: undefined, problem: undefined };
  const pinned =
    !problem && typeof state?.base_url === 'string' && sameUrl(state.base_url, config.baseUrl)
      ? state.tls_fingerprint
      : undefined;
  return pinned ? { ...config, tlsFingerprint: pinned } : config;
}

function resolveSource(sources: ConfigSources): ClientConfig {
  const url = given(sources.baseUrl, sources.env.LEDGER_BASE_URL);
  const key = given(sources.apiKey, sources.env.LEDGER_API_KEY);
  const chosen = given(sources.profile, sources.env.LEDGER_PROFILE);
  const stateFile = findStateFile(sources.cwd, sources.env);
  const insecure = Boolean(sources.insecure);
  const stateKeyFor = (baseUrl: string): string | undefined => {
    const { state, problem } = stateFile ? checkState(stateFile) : { state: undefined, problem: undefined };
    return !problem && typeof state?.base_url === 'string' && sameUrl(state.base_url, baseUrl)
      ? state.api_key
      : undefined;
  };
  const profile = chosen
    ? named(sources, chosen.value, chosen.source === 'flag' ? '--profile' : 'LEDGER_PROFILE')
    : undefined;

  if (url?.source === 'flag') {
    const baseUrl = checked(url.value, '--base-url', insecure);
    const done = (apiKey: string | undefined, keySource: ClientConfig['keySource']): ClientConfig => ({
      baseUrl,
      apiKey,
      source: 'flag',
      keySource,
      stateFile,
      profile: undefined,
      from: '--base-url',
      live: isLiveKey(apiKey) || Boolean(profile && keySource === 'profile' && profile.entry.live),
      insecure,
    });
    if (key?.source === 'flag') return done(key.value, 'flag');
    if (profile && sameUrl(profile.entry.base_url, baseUrl)) return done(profileKey(profile), 'profile');
    if (key) return done(key.value, 'env');
    const own = stateKeyFor(baseUrl);
    return done(own, own ? 'state' : undefined);
  }
  if (profile) {
    const apiKey = key?.source === 'flag' ? key.value : profileKey(profile);
    const from = `profile ${profile.name} (${chosen!.source === 'flag' ? '--profile' : 'LEDGER_PROFILE'})`;
    return fromProfile(
      profile,
      from,
      'profile',
      apiKey,
      key?.source === 'flag' ? 'flag' : 'profile',
      stateFile,
      insecure,
    );
  }
  if (url) {
    const baseUrl = checked(url.value, 'LEDGER_BASE_URL', insecure);
    if (key)
      return {
        baseUrl,
        apiKey: key.value,
        source: 'env',
        keySource: key.source,
        stateFile,
        profile: undefined,
        from: 'LEDGER_BASE_URL',
        live: isLiveKey(key.value),
        insecure,
      };
    // LEDGER_BASE_URL naming the state file's own sandbox is the same destination, so its key may go there.
    const own = stateKeyFor(baseUrl);
    return {
      baseUrl,
      apiKey: own,
      source: 'env',
      keySource: own ? 'state' : undefined,
      stateFile,
      profile: undefined,
      from: 'LEDGER_BASE_URL',
      live: false,
      insecure,
    };
  }
  if (key) throw new UsageError(keyWithoutUrl(key.source, stateFile), 'BASE_URL_REQUIRED');
  const state = stateFile ? readTrustedState(stateFile) : undefined;
  if (state?.base_url) {
    return {
      baseUrl: checked(state.base_url, stateFile!, insecure),
      apiKey: state.api_key,
      source: 'state',
      keySource: 'state',
      stateFile,
      profile: undefined,
      from: stateFile!,
      live: false,
      insecure,
    };
  }
  const fallback = sources.profiles?.default;
  if (fallback) {
    const chosenDefault = named(sources, fallback, `the default in ${configFile(sources.env)}`);
    return fromProfile(
      chosenDefault,
      `default profile ${fallback}`,
      'default-profile',
      profileKey(chosenDefault),
      'default-profile',
      stateFile,
      insecure,
    );
  }
  return {
    baseUrl: DEFAULT_BASE_URL,
    apiKey: undefined,
    source: 'default',
    keySource: undefined,
    stateFile,
    profile: undefined,
    from: 'the default URL (no sandbox state here)',
    live: false,
    insecure,
  };
}

interface NamedProfile {
  name: string;
  entry: Profile;
  env: NodeJS.ProcessEnv;
}

function named(sources: ConfigSources, name: string, by: string): NamedProfile {
  const file = sources.profiles;
  if (!file) throw new Error('the profiles file was not read before a profile was named (needsProfiles, loadProfiles)');
  return { name, entry: profileNamed(sources.env, file, name, by), env: sources.env };
}

/** A profile's key: its own, or the value of the environment variable it names (refused when that is unset). */
function profileKey(profile: NamedProfile): string | undefined {
  const { api_key: key, api_key_env: variable } = profile.entry;
  if (key) return key;
  if (!variable) return undefined;
  const value = profile.env[variable];
  if (!value) throw new UsageError(`profile ${profile.name} takes its key from $${variable}, which is not set`);
  return value;
}

function fromProfile(
  profile: NamedProfile,
  from: string,
  source: 'profile' | 'default-profile',
  apiKey: string | undefined,
  keySource: ClientConfig['keySource'],
  stateFile: string | undefined,
  insecure: boolean,
): ClientConfig {
  const allowInsecure = insecure || Boolean(profile.entry.insecure);
  const baseUrl = checked(profile.entry.base_url, from, allowInsecure);
  return {
    baseUrl,
    apiKey,
    source,
    keySource: apiKey ? keySource : undefined,
    stateFile,
    profile: profile.name,
    from,
    live: isLiveKey(apiKey) || Boolean(profile.entry.live),
    insecure: allowInsecure,
  };
}

/**
 * A request without a key can only be refused, so a command that needs one says what is missing
 * instead: no sandbox state here (exit 3, with how to start one), or a base URL without a key (exit 2).
 */
export function requireKey(config: ClientConfig, env: NodeJS.ProcessEnv, cwd: string): string {
  if (config.apiKey) return config.apiKey;
  if (config.profile) {
    throw new UsageError(
      `${config.from} has no API key: ` +
        `add it with \`ledger profiles add ${config.profile} --base-url ${config.baseUrl} --api-key-stdin\` ` +
        `(or --api-key-env VAR), or pass --api-key`,
    );
  }
  if (config.source === 'flag' || config.source === 'env') {
    const state = config.stateFile ? readState(config.stateFile) : undefined;
    const elsewhere = state?.base_url ? `; the key in ${config.stateFile} is sent only to ${state.base_url}` : '';
    throw new UsageError(`no API key for ${config.baseUrl}: set LEDGER_API_KEY (or pass --api-key)${elsewhere}`);
  }
  if (config.source === 'state' && config.stateFile) {
    // A sandbox that joined a shared database whose owner's key it was not given (SandboxState.api_key).
    throw new UsageError(
      `the sandbox in ${config.stateFile} (${config.baseUrl}) joined a shared database and has no key to give: ` +
        `set LEDGER_BASE_URL=${config.baseUrl} and LEDGER_API_KEY to the key the first start on that database ` +
        `printed, or start this sandbox again with --api-key (or LEDGER_SANDBOX_API_KEY) set to it`,
      'NO_API_KEY',
    );
  }
  const where = env.LEDGER_HOME
    ? `in LEDGER_HOME (${env.LEDGER_HOME})`
    : `in ${cwd} or a parent directory (.ledger/sandbox.json)`;
  throw new UnreachableError(
    `no sandbox state found ${where}: start one with \`ledger sandbox start --detach\`, ` +
      `set LEDGER_HOME to the .ledger folder of a running one, or set LEDGER_BASE_URL and LEDGER_API_KEY`,
    'NO_SANDBOX',
  );
}

/** A value given on the command line or in the environment: commander fills a flag from its variable, so the same value is the environment's. */
function given(
  flag: string | undefined,
  fromEnv: string | undefined,
): { value: string; source: 'flag' | 'env' } | undefined {
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
  return (
    `${what} but no base URL is: ${rule}, never to the one in ${stateFile}; ` +
    `${setUrl} to the URL this key is for, or ${dropKey} to use ${stateFile} with its own key`
  );
}

/**
 * The base URL without its trailing slashes, refused (exit 2) when it is not an http(s) URL, or when
 * it is `http://` beyond loopback without `allowInsecure`: live and remote services are `https://`,
 * and a key sent in clear text over a network is a key given away.
 */
export function checked(baseUrl: string, from: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`base URL ${baseUrl} is not a URL (from ${from})`);
  }
  // "localhost:4010" parses, as the scheme "localhost:": it was reported as a sandbox that cannot be reached (exit 3).
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `base URL ${baseUrl} is not an http:// or https:// URL (from ${from}): http://${baseUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}?`,
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecure) {
    throw new UsageError(
      `base URL ${baseUrl} (from ${from}) is http:// on a network: ` +
        `live and remote services are https://, so keys never travel in clear text; ` +
        `for a test server on a trusted network only, add --insecure`,
      'INSECURE_URL',
    );
  }
  return baseUrl.replace(/\/+$/, '');
}

function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => (URL.canParse(url) ? new URL(url).href.replace(/\/+$/, '') : url);
  return normal(a) === normal(b);
}
