import { Command, Option } from '../../cli/command.js';
import { checked } from '../../client/config.js';
import { UsageError } from '../../client/errors.js';
import { isLoopback } from '../../client/loopback.js';
import {
  configFile,
  isLiveKey,
  loadProfiles,
  type Profile,
  PROFILE_NAME,
  saveProfiles,
} from '../../client/profiles.js';
import type { Io } from '../../cli/io.js';
import { action, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';
import { keyText, liveText, type ShownProfile, shownProfile } from './shown.js';

export function addCommand(): Command {
  return new Command('add')
    .argument('<name>', 'letters, digits, ".", "_" and "-"')
    .option('--base-url <url>', 'the service: https://, or http:// on loopback (or with --insecure)')
    .addOption(
      new Option('--api-key-stdin', 'read the key from stdin (or, at a terminal, ask for it unseen)').conflicts(
        'apiKeyEnv',
      ),
    )
    .addOption(
      new Option('--api-key-env <var>', 'store the name of the variable that holds the key, never the key').conflicts(
        'apiKeyStdin',
      ),
    )
    .option('--live', 'mark the profile live: every command with it then needs --live')
    .option('--insecure', 'allow an http:// URL beyond loopback (a test server on a trusted network only)')
    .option('--force', 'replace a profile of that name')
    .option('--json', 'print the profile as JSON, its key masked')
    .addHelpText(
      'after',
      `
The key never goes on the command line (where \`ps\` shows it): \
pipe it in with --api-key-stdin, or name its variable with --api-key-env. \
Without either the profile has no key, and each command takes --api-key. \
Profiles are kept in $XDG_CONFIG_HOME/ledger/config.toml (~/.config/ledger/config.toml), mode 0600. \
Adding one does not make it the default: \`ledger profiles use NAME\` does.
${examples(
  'printf %s "$STAGING_KEY" | ledger profiles add staging --base-url https://staging.example.com --api-key-stdin',
  'ledger profiles add live --base-url https://api.example.com --api-key-env LEDGER_LIVE_KEY --live',
  'ledger profiles add lab --base-url http://10.0.0.5:4010 --api-key-stdin --insecure < lab-key.txt',
)}`,
    )
    .action(action(runAdd));
}

interface AddFlags {
  baseUrl?: string;
  apiKeyStdin?: boolean;
  apiKeyEnv?: string;
  live?: boolean;
  insecure?: boolean;
  force?: boolean;
}

/** An API key as the service issues them; what does not look like one is refused without being repeated. */
const KEY = /^svc_(test|live)_[0-9A-Za-z]+$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NOT_A_KEY = 'does not look like an API key (svc_test_… or svc_live_…); it is not shown here';
/** More than this on stdin is not one key. */
const STDIN_LIMIT = 4096;

/**
 * Adds (or with --force replaces) a profile. Everything that can be checked is checked before the
 * key is read, and nothing is written unless all of it passes; the key is never printed.
 */
export async function runAdd(io: Io, name: string, flags: AddFlags): Promise<void> {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `profile name "${name}" must be letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)`,
    );
  if (!flags.baseUrl) throw new UsageError('missing --base-url: the URL of the service this profile is for');
  const baseUrl = checked(flags.baseUrl, '--base-url', Boolean(flags.insecure));
  if (flags.apiKeyEnv !== undefined && !VARIABLE.test(flags.apiKeyEnv))
    throw new UsageError(
      `--api-key-env ${flags.apiKeyEnv}: give the name of an environment variable (letters, digits and _), not its value`,
    );
  const file = await loadProfiles(io.env);
  const existing = Object.hasOwn(file.profiles, name) ? file.profiles[name] : undefined;
  if (existing && !flags.force)
    throw new UsageError(
      `profile ${name} already exists (${existing.base_url}) in ${configFile(io.env)}: pass --force to replace it`,
      'PROFILE_EXISTS',
    );
  const apiKey = flags.apiKeyStdin ? await readKey(io) : undefined;
  const profile: Profile = {
    base_url: baseUrl,
    api_key: apiKey,
    api_key_env: flags.apiKeyEnv,
    live: flags.live || undefined,
    insecure: flags.insecure || undefined,
  };
  const shown = shownProfile(name, profile, file, io.env);
  const host = new URL(baseUrl).hostname;
  if (shown.live && baseUrl.startsWith('http:') && !isLoopback(host)) {
    throw new UsageError(
      `a live profile must be https://: --insecure is for test servers on a trusted network, ` +
        `and ${baseUrl} would carry a live key in clear text; nothing was written`,
      'INSECURE_URL',
    );
  }
  file.profiles[name] = profile;
  const path = await saveProfiles(io.env, file);
  await io.show({ ...shown, replaced: Boolean(existing), file: path }, addedView(Boolean(flags.live)), {
    target: false,
  });
}

/** The key from stdin: piped in, or typed unseen at a terminal; never a hang without either. */
async function readKey(io: Io): Promise<string> {
  if (io.stdinIsTTY) {
    if (!io.interactive()) {
      throw new UsageError(
        '--api-key-stdin: stdin is a terminal but stdout is not, so there is nobody to ask: pipe the key in (printf %s "$KEY" | ledger profiles add …)',
      );
    }
    const { secret } = await import('../../cli/prompts.js');
    return secret(io, '--api-key-stdin', 'API key (svc_test_… or svc_live_…)', (text) =>
      KEY.test(text) ? undefined : `that ${NOT_A_KEY}`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > STDIN_LIMIT)
      throw new UsageError(
        `--api-key-stdin: more than ${STDIN_LIMIT} bytes on stdin, which is not one API key; nothing was written`,
      );
    chunks.push(chunk);
  }
  const key = Buffer.concat(chunks).toString('utf8').trim();
  if (!key)
    throw new UsageError(
      '--api-key-stdin: nothing on stdin: pipe the key in (printf %s "$KEY" | ledger profiles add …), or use --api-key-env VAR',
    );
  if (!KEY.test(key)) throw new UsageError(`--api-key-stdin: what stdin held ${NOT_A_KEY}; nothing was written`);
  return key;
}

type Added = ShownProfile & { replaced: boolean; file: string };

const addedView = (marked: boolean): View => ({
  kind: 'custom',
  quiet: (p: Added) => p.name,
  lines: (p: Added, fmt) => {
    const line = (label: string, value: string) => `${fmt.dim(label.padEnd(9))} ${value}`;
    const key = keyText(p);
    return [
      fmt.green(`${p.replaced ? 'Replaced' : 'Added'} profile ${fmt.bold(p.name)} in ${p.file} (mode 0600).`),
      line('Base URL', p.base_url),
      line(
        'Key',
        key ??
          `none: give --api-key to each command, or add a key with \`ledger profiles add ${p.name} --base-url ${p.base_url} --api-key-stdin --force\``,
      ),
      ...(p.key_env && !p.key_env_set
        ? [fmt.yellow(`$${p.key_env} is not set here: set it where you use this profile.`)]
        : []),
      line('Live', p.live ? fmt.red(liveText(p, marked)) : 'no'),
      ...(p.insecure
        ? [line('Insecure', 'http:// beyond loopback allowed (a test server on a trusted network only)')]
        : []),
      p.default ? line('Default', 'yes') : `Use \`ledger profiles use ${p.name}\` to make it the default.`,
    ];
  },
});
