import type { Command } from '../cli/command.js';
import type { Source } from '../client/config.js';
import { maskKey } from '../client/profiles.js';
import type { Io } from '../cli/io.js';
import { action, clientCommand, examples } from '../cli/options.js';
import type { View } from '../cli/output/views.js';
import { checkKey } from './profiles/key-check.js';

export function whoamiCommand(): Command {
  return clientCommand('whoami')
    .addHelpText(
      'after',
      `
Says which setting chose the service (flags, --profile or LEDGER_PROFILE, LEDGER_BASE_URL with LEDGER_API_KEY, \
this folder's sandbox state, the default profile), its URL, and whether the key works and whose it is, \
with GET requests only. A live key or profile is checked only with --live. \
--json prints { source, from, profile, base_url, key, key_kind, live, developer, key_works }, \
the key masked (svc_test_…9f3a); key_works is null when nothing was checked.
${examples('ledger whoami', 'ledger whoami --profile staging', 'ledger --profile live whoami --live', 'ledger whoami --json')}`,
    )
    .action(action(runWhoami));
}

export interface Whoami {
  source: Source;
  from: string;
  profile: string | null;
  base_url: string;
  key: string | null;
  key_kind: 'test' | 'live' | null;
  live: boolean;
  developer: { id: string; name: string } | null;
  key_works: boolean | null;
}

const view = (said: string): View => ({
  kind: 'custom',
  quiet: (w: Whoami) => w.base_url,
  lines: (w: Whoami, fmt) => {
    const line = (label: string, value: string) => `${fmt.dim(label.padEnd(10))} ${value}`;
    return [
      line('URL', fmt.bold(w.base_url)),
      line('From', w.from),
      ...(w.profile ? [line('Profile', w.profile)] : []),
      line('Key', w.key ? `${w.key} (${w.key_kind ?? 'unknown kind'})` : fmt.dim('none')),
      line('Live', w.live ? fmt.red('yes: every command needs --live') : 'no'),
      line(
        'Developer',
        w.developer
          ? `${w.developer.name} (${w.developer.id})`
          : fmt.dim(w.key_works ? 'not said by the service' : '—'),
      ),
      line('Check', w.key_works === false ? fmt.red(said) : w.key_works ? fmt.green(said) : said),
    ];
  },
});

/** Where this command line's requests would go and with which key, and whether that key works (as `gh auth status`). */
export async function runWhoami(io: Io): Promise<void> {
  const config = io.config();
  const check = await checkKey(io);
  const kind = /^svc_(test|live)_/.exec(config.apiKey ?? '')?.[1] as 'test' | 'live' | undefined;
  const result: Whoami = {
    source: config.source,
    from: config.from,
    profile: config.profile ?? null,
    base_url: config.baseUrl,
    key: config.apiKey ? maskKey(config.apiKey) : null,
    key_kind: kind ?? null,
    live: config.live,
    developer: check.developer,
    key_works: check.key_works,
  };
  await io.show(result, view(check.said), { target: false });
  if (check.failure) throw check.failure;
}
