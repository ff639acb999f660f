import { Command } from '../../cli/command.js';
import { loadProfiles, profileNamed, saveProfiles } from '../../client/profiles.js';
import type { Io } from '../../cli/io.js';
import { action, examples } from '../../cli/options.js';
import { clean } from '../../text/clean.js';

export function useCommand(): Command {
  return new Command('use')
    .argument('<name>', 'a profile of `ledger profiles list`')
    .addHelpText(
      'after',
      `
The default profile is used where nothing else names a service: \
no --base-url or --profile, no LEDGER_PROFILE or LEDGER_BASE_URL, \
and no sandbox state in this folder (\`ledger whoami\` says which one wins).
${examples('ledger profiles use staging', 'ledger whoami')}`,
    )
    .action(action(runUse));
}

/** Makes `name` the default profile. */
export async function runUse(io: Io, name: string): Promise<void> {
  const file = await loadProfiles(io.env);
  const profile = profileNamed(io.env, file, name);
  file.default = name;
  await saveProfiles(io.env, file);
  io.stdout.write(
    `Default profile: ${name} (${clean(profile.base_url)}), used where no flag, LEDGER_PROFILE, LEDGER_BASE_URL or sandbox state here names another service.\n`,
  );
}
