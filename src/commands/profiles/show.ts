import type { Command } from '../../cli/command.js';
import { UsageError } from '../../client/errors.js';
import { loadProfiles, profileNamed } from '../../client/profiles.js';
import { createIo, type Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';
import { checkKey, type KeyCheck } from './key-check.js';
import { keyText, liveText, type ShownProfile, shownProfile } from './shown.js';

export function showCommand(): Command {
  return clientCommand('show')
    .argument('[name]', 'a profile (default: --profile or LEDGER_PROFILE, else the default profile)')
    .addHelpText(
      'after',
      `
Prints the profile, its key masked, and checks the key with GET requests: \
a sandbox names the developer it belongs to; another service only says whether it works. \
A live profile is checked only with --live; without it nothing is sent. \
--json prints the profile as \`ledger profiles list --json\` does, with key_works (null when not checked) \
and developer.
${examples('ledger profiles show', 'ledger profiles show staging', 'ledger profiles show live --live', 'ledger profiles show staging --json')}`,
    )
    .action(action(runShow));
}

type Shown = ShownProfile & Omit<KeyCheck, 'said' | 'failure'>;

/** A profile, and whether its key works (exit 1 when it is refused, 3 when its service cannot be reached). */
export async function runShow(io: Io, name: string | undefined): Promise<void> {
  const file = await loadProfiles(io.env);
  const chosen = name ?? io.flags.profile ?? file.default;
  if (!chosen) {
    const names = Object.keys(file.profiles);
    throw new UsageError(
      names.length > 0
        ? `which profile? Name one (profiles: ${names.join(', ')}), or make one the default with \`ledger profiles use NAME\``
        : 'there are no profiles yet: add one with `ledger profiles add NAME --base-url URL --api-key-stdin`',
    );
  }
  const profile = profileNamed(
    io.env,
    file,
    chosen,
    name === undefined && io.flags.profile ? 'LEDGER_PROFILE or --profile' : undefined,
  );
  if (io.flags.baseUrl !== undefined && io.flags.baseUrl !== io.env.LEDGER_BASE_URL) {
    throw new UsageError(
      `\`ledger profiles show\` checks a profile at its own URL (${profile.base_url}): leave out --base-url, or ask \`ledger whoami --base-url …\``,
    );
  }
  const shown = shownProfile(chosen, profile, file, io.env);
  const givenKey = io.flags.apiKey !== undefined && io.flags.apiKey !== io.env.LEDGER_API_KEY;
  // The profile as `--profile NAME` would have it: the same URL, key and guards as every other command.
  const target = createIo(
    { ...io.flags, profile: chosen },
    { stdout: io.stdout, stderr: io.stderr, stdinIsTTY: io.stdinIsTTY, env: io.env, cwd: io.cwd },
  );
  const unset = !givenKey && !shown.key && shown.key_env;
  let check: KeyCheck;
  if (unset) check = { key_works: null, developer: null, said: `not checked: $${shown.key_env} is not set` };
  else {
    await target.prepare();
    check = await checkKey(target);
  }
  const { said, failure, ...found } = check;
  await io.show({ ...shown, ...found }, showView(said, Boolean(profile.live)), { target: false });
  if (failure) throw failure;
}

const showView = (said: string, marked: boolean): View => ({
  kind: 'custom',
  quiet: (p: Shown) => p.name,
  lines: (p: Shown, fmt) => {
    const line = (label: string, value: string) => `${fmt.dim(label.padEnd(9))} ${value}`;
    return [
      `${fmt.bold(p.name)}${p.default ? fmt.dim(' (default)') : ''}`,
      line('Base URL', p.base_url),
      line('Key', keyText(p) ?? fmt.dim('none: give --api-key to each command')),
      line('Live', p.live ? fmt.red(liveText(p, marked)) : 'no'),
      ...(p.insecure
        ? [line('Insecure', 'http:// beyond loopback allowed (a test server on a trusted network only)')]
        : []),
      ...(p.developer ? [line('Developer', `${p.developer.name} (${p.developer.id})`)] : []),
      line('Check', p.key_works === false ? fmt.red(said) : p.key_works ? fmt.green(said) : said),
    ];
  },
});
