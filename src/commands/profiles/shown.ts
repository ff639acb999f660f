import { isLiveKey, maskKey, type Profile, type ProfilesFile } from '../../client/profiles.js';
import type { View } from '../../cli/output/views.js';

/**
 * A profile as `profiles list`, `add` and `show` print it, for people and in --json alike: its key
 * only as maskKey gives it (`svc_test_…9f3a`), so no output of these commands ever carries a key.
 */
export interface ShownProfile {
  name: string;
  base_url: string;
  /** The key, masked: the profile's own, or the value of its variable when that is set. */
  key: string | null;
  /** The environment variable the key is read from, when the profile names one. */
  key_env: string | null;
  /** Whether that variable is set here and now (null without one). */
  key_env_set: boolean | null;
  /** Marked live, or live by its key (`svc_live_`): every command with it needs --live. */
  live: boolean;
  insecure: boolean;
  /** The one `ledger profiles use` chose. */
  default: boolean;
}

export function shownProfile(name: string, profile: Profile, file: ProfilesFile, env: NodeJS.ProcessEnv): ShownProfile {
  const variable = profile.api_key_env;
  const key = profile.api_key || (variable ? env[variable] || undefined : undefined);
  return {
    name,
    base_url: profile.base_url,
    key: key ? maskKey(key) : null,
    key_env: variable ?? null,
    key_env_set: variable ? Boolean(env[variable]) : null,
    live: Boolean(profile.live) || isLiveKey(key),
    insecure: Boolean(profile.insecure),
    default: file.default === name,
  };
}

/** The key as people read it: `svc_test_…9f3a`, `$STAGING_KEY (svc_test_…9f3a)`, `$STAGING_KEY (not set)`, or nothing. */
export function keyText(profile: ShownProfile): string | null {
  if (!profile.key_env) return profile.key;
  return `$${profile.key_env} (${profile.key ?? 'not set'})`;
}

/** Why a profile is live, for people: marked so, or by its key alone. */
export function liveText(profile: ShownProfile, marked: boolean): string {
  if (!profile.live) return 'no';
  return marked
    ? 'yes: every command with it needs --live'
    : 'yes, by its key (svc_live_): every command with it needs --live';
}

export const profileListView: View = {
  kind: 'list',
  id: 'name',
  noun: 'profile',
  empty: 'No profiles yet. Add one with `ledger profiles add NAME --base-url URL --api-key-stdin`.',
  // For people and pipes, the key as keyText says it and the kind of service in a word; --json keeps the fields as they are.
  derive: (p: ShownProfile) => ({
    key: keyText(p),
    live: p.live ? 'LIVE' : 'test',
    insecure: p.insecure ? 'insecure' : null,
  }),
  columns: [
    { label: 'Default', key: 'default', format: 'bool', yes: '*', no: ' ' },
    { label: 'Name', key: 'name', kind: 'text' },
    { label: 'Base URL', key: 'base_url', kind: 'text' },
    { label: 'Key', key: 'key', kind: 'text', drop: 1 },
    { label: 'Live', key: 'live' },
    { label: 'Insecure', key: 'insecure', drop: 2 },
  ],
};
