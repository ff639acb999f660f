import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigSources, needsProfiles, resolveConfig } from '../../src/client/config.js';
import { configFile, loadProfiles, maskKey, type ProfilesFile, saveProfiles } from '../../src/client/profiles.js';

/** Five places that can each name a service, each with its own URL and key, so the winner is plain. */
const FLAG = { url: 'https://flag.example', key: 'svc_test_flagkey1' };
const PROFILE = { url: 'https://staging.example', key: 'svc_test_profile1' };
const ENV = { url: 'https://env.example', key: 'svc_test_envkey01' };
const STATE = { url: 'http://127.0.0.1:4555', key: 'svc_test_statekey' };
const DEFAULT = { url: 'https://team.example', key: 'svc_test_default1' };

let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ledger-profiles-'));
  cwd = join(root, 'project');
  mkdirSync(cwd);
  env = { XDG_CONFIG_HOME: join(root, 'config'), LEDGER_CEILING_DIRECTORIES: tmpdir() };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const FILE: ProfilesFile = {
  default: 'team',
  profiles: {
    staging: { base_url: PROFILE.url, api_key: PROFILE.key },
    team: { base_url: DEFAULT.url, api_key: DEFAULT.key },
    prod: { base_url: 'https://api.example', api_key_env: 'PROD_KEY', live: true },
    lab: { base_url: 'http://10.1.2.3:4010', api_key: 'svc_test_lab00001', insecure: true },
  },
};

function plantState(): void {
  const dir = join(cwd, '.ledger');
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(join(dir, 'sandbox.json'), JSON.stringify({ base_url: STATE.url, api_key: STATE.key, db: 'x' }), {
    mode: 0o600,
  });
}

const resolve = (sources: Partial<ConfigSources> = {}, more: NodeJS.ProcessEnv = {}) => {
  const all = { ...env, ...more };
  return resolveConfig({ cwd, profiles: FILE, ...sources, env: all });
};
const winner = (sources: Partial<ConfigSources> = {}, more: NodeJS.ProcessEnv = {}) => {
  const { baseUrl, apiKey, source } = resolve(sources, more);
  return { baseUrl, apiKey, source };
};
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  throw new Error('not refused');
}

describe('one order of precedence: flags, --profile, the environment, the state file, the default profile', () => {
  const ENVIRONMENT = { LEDGER_BASE_URL: ENV.url, LEDGER_API_KEY: ENV.key };

  it('each step wins over every step below it', () => {
    plantState();
    expect(winner({ baseUrl: FLAG.url, apiKey: FLAG.key, profile: 'staging' }, ENVIRONMENT)).toEqual({
      baseUrl: FLAG.url,
      apiKey: FLAG.key,
      source: 'flag',
    });
    expect(winner({ profile: 'staging' }, ENVIRONMENT)).toEqual({
      baseUrl: PROFILE.url,
      apiKey: PROFILE.key,
      source: 'profile',
    });
    expect(winner({}, { ...ENVIRONMENT, LEDGER_PROFILE: 'staging' })).toEqual({
      baseUrl: PROFILE.url,
      apiKey: PROFILE.key,
      source: 'profile',
    });
    expect(winner({}, ENVIRONMENT)).toEqual({ baseUrl: ENV.url, apiKey: ENV.key, source: 'env' });
    expect(winner()).toEqual({ baseUrl: STATE.url, apiKey: STATE.key, source: 'state' });
    rmSync(join(cwd, '.ledger'), { recursive: true });
    expect(winner()).toEqual({ baseUrl: DEFAULT.url, apiKey: DEFAULT.key, source: 'default-profile' });
    expect(winner({ profiles: { profiles: {} } })).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      apiKey: undefined,
      source: 'default',
    });
  });

  it('a key goes only to the URL of its own source', () => {
    // --base-url with --profile: the profile's key does not follow the flag's URL elsewhere.
    expect(winner({ baseUrl: FLAG.url, profile: 'staging' })).toEqual({
      baseUrl: FLAG.url,
      apiKey: undefined,
      source: 'flag',
    });
    expect(winner({ baseUrl: PROFILE.url, profile: 'staging' })).toEqual({
      baseUrl: PROFILE.url,
      apiKey: PROFILE.key,
      source: 'flag',
    });
    // --api-key with --profile: a key given on the command line for the profile named on it.
    expect(winner({ apiKey: FLAG.key, profile: 'staging' })).toEqual({
      baseUrl: PROFILE.url,
      apiKey: FLAG.key,
      source: 'profile',
    });
    // LEDGER_API_KEY alone never goes to the default profile's URL.
    expect(refusal(() => resolve({}, { LEDGER_API_KEY: ENV.key }))).toMatch(/^BASE_URL_REQUIRED: /);
  });

  it('says where the URL came from, and whether the key is live', () => {
    expect(resolve({ profile: 'staging' })).toMatchObject({
      profile: 'staging',
      from: 'profile staging (--profile)',
      live: false,
    });
    expect(resolve({}, { LEDGER_PROFILE: 'prod', PROD_KEY: 'svc_live_abcd1234' })).toMatchObject({
      apiKey: 'svc_live_abcd1234',
      from: 'profile prod (LEDGER_PROFILE)',
      live: true,
    });
    expect(resolve({ baseUrl: FLAG.url, apiKey: 'svc_live_xyz' })).toMatchObject({ live: true, from: '--base-url' });
    expect(resolve()).toMatchObject({ source: 'default-profile', profile: 'team', from: 'default profile team' });
  });

  it('refuses a profile that does not exist, a key variable that is unset, and http:// beyond loopback', () => {
    expect(refusal(() => resolve({ profile: 'nope' }))).toBe(
      `PROFILE_NOT_FOUND: no profile named "nope" (from --profile) in ${configFile(env)}; profiles: staging, team, prod, lab`,
    );
    expect(refusal(() => resolve({ profile: 'prod' }))).toBe(
      'USAGE: profile prod takes its key from $PROD_KEY, which is not set',
    );
    expect(refusal(() => resolve({ baseUrl: 'http://10.0.0.5:4010', apiKey: FLAG.key }))).toMatch(
      /^INSECURE_URL: base URL http:\/\/10\.0\.0\.5:4010 \(from --base-url\) is http:\/\/ on a network: .*add --insecure$/,
    );
    expect(resolve({ baseUrl: 'http://10.0.0.5:4010', apiKey: FLAG.key, insecure: true }).baseUrl).toBe(
      'http://10.0.0.5:4010',
    );
    expect(resolve({ profile: 'lab' })).toMatchObject({ baseUrl: 'http://10.1.2.3:4010', insecure: true });
    expect(resolve({ baseUrl: 'http://127.0.0.1:9', apiKey: FLAG.key }).baseUrl).toBe('http://127.0.0.1:9');
  });

  it('reads the profiles file only when a profile may decide', () => {
    const sources = { cwd, env };
    expect(needsProfiles(sources)).toBe(false);
    mkdirSync(join(root, 'config', 'ledger'), { recursive: true });
    writeFileSync(configFile(env), '');
    expect(needsProfiles(sources)).toBe(true);
    expect(needsProfiles({ ...sources, env: { ...env, LEDGER_BASE_URL: ENV.url } })).toBe(false);
    plantState();
    expect(needsProfiles(sources)).toBe(false);
    expect(needsProfiles({ ...sources, profile: 'staging' })).toBe(true);
  });
});

describe('the profiles file', () => {
  it('is written 0600 in a 0700 folder, atomically, and read back as written', async () => {
    const path = await saveProfiles(env, FILE);
    expect(path).toBe(join(root, 'config', 'ledger', 'config.toml'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'config', 'ledger')).mode & 0o777).toBe(0o700);
    expect(await loadProfiles(env)).toEqual(FILE);
    expect(readFileSync(path, 'utf8')).toContain(
      '[profiles.prod]\nbase_url = "https://api.example"\napi_key_env = "PROD_KEY"\nlive = true',
    );
  });

  it('is refused when others may read or write it, and when it is not TOML', async () => {
    const path = await saveProfiles(env, FILE);
    chmodSync(path, 0o644);
    await expect(loadProfiles(env)).rejects.toMatchObject({
      code: 'CONFIG_UNTRUSTED',
      message: `${path} can be read or written by other users (mode 0644); it holds API keys: chmod 600 ${path}`,
    });
    chmodSync(path, 0o600);
    writeFileSync(path, '[profiles.x\nbase_url = 1');
    await expect(loadProfiles(env)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    writeFileSync(path, '[profiles.x]\napi_key = "svc_test_a"');
    await expect(loadProfiles(env)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: `${path}: profile "x" has no base_url`,
    });
  });

  it('masks a key to its kind and last four characters', () => {
    expect(maskKey('svc_test_0123456789abcdef9f3a')).toBe('svc_test_…9f3a');
    expect(maskKey('svc_live_0123456789abcdefBEEF')).toBe('svc_live_…BEEF');
    expect(maskKey('sk_other_key_1234')).toBe('…1234');
  });
});
