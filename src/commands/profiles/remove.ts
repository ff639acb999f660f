import { Command } from '../../cli/command.js';
import { loadProfiles, profileNamed, saveProfiles } from '../../client/profiles.js';
import type { Io } from '../../cli/io.js';
import { action, examples } from '../../cli/options.js';

export function removeCommand(): Command {
  return new Command('remove')
    .argument('<name>', 'a profile of `ledger profiles list`')
    .addHelpText('after', examples('ledger profiles remove staging'))
    .action(action(runRemove));
}

/** Removes a profile, and the default with it when it was the default. */
export async function runRemove(io: Io, name: string): Promise<void> {
  const file = await loadProfiles(io.env);
  profileNamed(io.env, file, name);
  delete file.profiles[name];
  const wasDefault = file.default === name;
  if (wasDefault) file.default = undefined;
  await saveProfiles(io.env, file);
  io.stdout.write(
    `Removed profile ${name}.${wasDefault ? ' It was the default: there is none now (`ledger profiles use NAME` sets one).' : ''}\n`,
  );
}
