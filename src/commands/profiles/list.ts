import { Command } from '../../cli/command.js';
import { loadProfiles } from '../../client/profiles.js';
import type { Io } from '../../cli/io.js';
import { action, examples } from '../../cli/options.js';
import { withFormat } from '../../cli/paging.js';
import { profileListView, shownProfile } from './shown.js';

export function listCommand(): Command {
  return withFormat(new Command('list'))
    .option('--json', 'print the profiles as a JSON array, each key masked')
    .option('-q, --quiet', 'print only the names')
    .option('-w, --wide', 'whole values in the table, whatever the terminal width')
    .addHelpText(
      'after',
      `
Each key is shown masked, as its kind and last four characters (svc_test_…9f3a); \
a key read from a variable as $NAME, with its masked value when it is set. \
--json prints an array of { name, base_url, key, key_env, key_env_set, live, insecure, default } with the key masked too: \
no output of ledger profiles carries a key. * marks the default profile (\`ledger profiles use\`).
${examples('ledger profiles list', 'ledger profiles list --json', 'ledger profiles list | cut -f2,3')}`,
    )
    .action(action(runList));
}

/** Every profile by name, the default marked: a table on a terminal, TSV for a pipe, a JSON array with --json. */
export async function runList(io: Io): Promise<void> {
  const file = await loadProfiles(io.env);
  const items = Object.keys(file.profiles)
    .sort()
    .map((name) => shownProfile(name, file.profiles[name]!, file, io.env));
  await io.show(io.flags.json ? items : { items }, profileListView, { target: false });
}
