import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from './errors.js';

/**
 * Named profiles: where a command's requests go and with which key, kept in
 * `$XDG_CONFIG_HOME/ledger/config.toml` (default `~/.config/ledger/`), mode 0600 in a 0700 folder,
 * as the Stripe CLI keeps its projects. A profile holds a key, or the name of the environment variable
 * that holds it (the key then never touches the disk). The TOML library is loaded only when a
 * profile is read or written: a command run against this folder's sandbox never parses the file.
 */
export interface Profile {
  base_url: string;
  /** The key itself (the file is then 0600, like the sandbox state). */
  api_key?: string | undefined;
  /** The name of the environment variable that holds the key. */
  api_key_env?: string | undefined;
  /** A live profile: every command needs --live (a `svc_live_` key is live whatever this says). */
  live?: boolean | undefined;
  /** An `http://` URL that is not loopback is allowed: a test server on a trusted network, never a live one. */
  insecure?: boolean | undefined;
}

export interface ProfilesFile {
  /** The profile `ledger profiles use` chose: used when nothing else names a service. */
  default?: string | undefined;
  profiles: Record<string, Profile>;
}

/** A profile's name: letters, digits, `.`, `_` and `-`, as a TOML bare key and a shell word. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `$XDG_CONFIG_HOME/ledger`, else `~/.config/ledger` (HOME from the given environment first). */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/')) return join(env.XDG_CONFIG_HOME, 'ledger');
  return join(env.HOME || homedir(), '.config', 'ledger');
}

export function configFile(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.toml');
}

/** Whether a profiles file exists: a stat, without reading or parsing it. */
export function hasProfiles(env: NodeJS.ProcessEnv): boolean {
  return existsSync(configFile(env));
}

/**
 * The profiles file, or an empty one when there is none. Refused (CONFIG_UNTRUSTED, exit 2) when it
 * is not this user's or others may read or write it: it holds keys and says where they are sent.
 * A file that is not valid TOML, or a profile without a base URL, is CONFIG_INVALID (exit 2).
 */
export async function loadProfiles(env: NodeJS.ProcessEnv): Promise<ProfilesFile> {
  const file = configFile(env);
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const stats = fstatSync(fd);
      const uid = process.getuid?.();
      if (uid !== undefined && stats.uid !== uid)
        throw new UsageError(`${file} is owned by another user (uid ${stats.uid}); not using it`, 'CONFIG_UNTRUSTED');
      if (uid !== undefined && (stats.mode & 0o077) !== 0) {
        const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
        throw new UsageError(
          `${file} can be read or written by other users (mode ${mode}); it holds API keys: chmod 600 ${file}`,
          'CONFIG_UNTRUSTED',
        );
      }
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  const { parse } = await import('smol-toml');
  let raw: Record<string, unknown>;
  try {
    raw = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`${file} is not valid TOML: ${(error as Error).message.split('\n')[0]}`, 'CONFIG_INVALID');
  }
  return checked(raw, file);
}

function checked(raw: Record<string, unknown>, file: string): ProfilesFile {
  const invalid = (what: string) => new UsageError(`${file}: ${what}`, 'CONFIG_INVALID');
  const table = raw.profiles ?? {};
  if (typeof table !== 'object' || Array.isArray(table))
    throw invalid('`profiles` must be a table of [profiles.NAME] sections');
  const profiles: Record<string, Profile> = {};
  for (const [name, value] of Object.entries(table as Record<string, unknown>)) {
    if (!PROFILE_NAME.test(name)) throw invalid(`profile name "${name}" must be letters, digits, ".", "_" and "-"`);
    const entry = value as Record<string, unknown>;
    if (typeof entry !== 'object' || entry === null || typeof entry.base_url !== 'string')
      throw invalid(`profile "${name}" has no base_url`);
    for (const field of ['api_key', 'api_key_env'] as const) {
      if (entry[field] !== undefined && typeof entry[field] !== 'string')
        throw invalid(`profile "${name}": ${field} must be a string`);
    }
    for (const field of ['live', 'insecure'] as const) {
      if (entry[field] !== undefined && typeof entry[field] !== 'boolean')
        throw invalid(`profile "${name}": ${field} must be true or false`);
    }
    profiles[name] = {
      base_url: entry.base_url,
      api_key: entry.api_key as string | undefined,
      api_key_env: entry.api_key_env as string | undefined,
      live: entry.live as boolean | undefined,
      insecure: entry.insecure as boolean | undefined,
    };
  }
  if (raw.default !== undefined && typeof raw.default !== 'string') throw invalid('`default` must be a profile name');
  return { default: raw.default as string | undefined, profiles };
}

/**
 * Writes the profiles file atomically: a new file of mode 0600 beside it (created exclusively, so
 * nothing planted there is written through), flushed, then renamed over the old one, in a folder of
 * mode 0700. A crash leaves the old file or the new one, never half of one.
 */
export async function saveProfiles(env: NodeJS.ProcessEnv, file: ProfilesFile): Promise<string> {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const { stringify } = await import('smol-toml');
  const profiles = Object.fromEntries(
    Object.entries(file.profiles).map(([name, profile]) => [
      name,
      Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined)),
    ]),
  );
  const text =
    `# ledger profiles: \`ledger profiles add|use|remove\` rewrite this file (mode 0600).\n` +
    `${stringify({ ...(file.default ? { default: file.default } : {}), profiles })}\n`;
  const target = resolve(dir, 'config.toml');
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return target;
}

/**
 * The profile of that name, or PROFILE_NOT_FOUND (exit 2) naming the file and the profiles it has
 * (`by`: what named it, `--profile` or `LEDGER_PROFILE`, when that was not the command's own argument).
 */
export function profileNamed(env: NodeJS.ProcessEnv, file: ProfilesFile, name: string, by?: string): Profile {
  const entry = Object.hasOwn(file.profiles, name) ? file.profiles[name] : undefined;
  if (entry) return entry;
  const names = Object.keys(file.profiles);
  const known =
    names.length > 0
      ? `; profiles: ${names.join(', ')}`
      : `; there are none yet (\`ledger profiles add ${PROFILE_NAME.test(name) ? name : 'NAME'} --base-url URL --api-key-stdin\`)`;
  throw new UsageError(
    `no profile named "${name}"${by ? ` (from ${by})` : ''} in ${configFile(env)}${known}`,
    'PROFILE_NOT_FOUND',
  );
}

/**
 * A key as lists show it: its kind and its last four characters (`svc_test_…9f3a`), enough to tell
 * two keys apart and never enough to use one.
 */
export function maskKey(key: string): string {
  const kind = /^svc_(test|live)_/.exec(key)?.[0] ?? '';
  return `${kind}…${key.slice(-4)}`;
}

/** Whether a key is for the live service. */
export const isLiveKey = (key: string | undefined): boolean => Boolean(key?.startsWith('svc_live_'));
