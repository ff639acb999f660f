import { Command } from 'commander';
import { resolve } from 'node:path';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import type { View } from '../output/views.js';
import { pageQuery, type PageFlags, withPaging } from '../paging.js';
import { confirm } from '../prompts.js';

/** A snapshot as the API gives it (GET /sandbox/snapshots, and the answer to save and restore). */
interface Snapshot {
  name: string | null;
  file: string | null;
  size_bytes: number;
  saved_at: string | null;
}

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const label = (s: Snapshot) => s.name ?? s.file ?? '';

const snapshotView = (verb: string): View => ({
  kind: 'custom',
  quiet: label,
  lines: (s: Snapshot, fmt) => [fmt.green(`${verb} ${s.name ? `snapshot ${fmt.bold(s.name)}` : s.file}`), fmt.dim(`${size(s.size_bytes)}, saved at ${s.saved_at ?? 'an unknown time'} (sandbox clock)`)],
});

const listView: View = {
  kind: 'custom',
  quiet: (page: { items: Snapshot[] }) => page.items.map(label).join('\n'),
  lines: (page: { items: Snapshot[] }, fmt) =>
    page.items.length === 0
      ? [fmt.dim('No snapshots yet. Save one with `ledger sandbox snapshot save <name>`.')]
      : page.items.map((s) => `${fmt.bold(label(s).padEnd(24))} ${size(s.size_bytes).padStart(9)}  ${fmt.dim(s.saved_at ?? '')}`),
};

/** Exactly one of a name and --file: the body of save, or which restore route to call. */
function targetOf(io: Io, name: string | undefined, file: string | undefined): { name: string } | { file: string } {
  if ((name === undefined) === (file === undefined)) throw new UsageError('give a snapshot name or --file PATH (one of them)');
  // The server may run in another directory: it gets an absolute path.
  return name !== undefined ? { name } : { file: resolve(io.cwd, file!) };
}

export function snapshotCommand(): Command {
  return new Command('snapshot')
    .description('Save the whole sandbox and put it back: named snapshots in .ledger/snapshots, or files anywhere (--file)')
    .addCommand(
      clientCommand('save')
        .description('Save the whole sandbox (every developer) as a named snapshot, or to a file with --file; consistent while requests run')
        .argument('[name]', 'letters, digits, dots, dashes, underscores (replaces a snapshot of that name)')
        .option('--file <path>', 'write the snapshot to this file instead (a fixture to commit, say)')
        .addHelpText('after', examples('ledger sandbox snapshot save base', 'ledger sandbox snapshot save --file test/fixtures/base.db --json'))
        .action(action(runSave)),
    )
    .addCommand(
      clientCommand('restore')
        .description('Put the whole sandbox back as a snapshot holds it; keys in use keep working (asks first on a terminal)')
        .argument('[name]', 'a snapshot saved with `snapshot save <name>`')
        .option('--file <path>', 'restore from this file instead (older snapshots are migrated; the file is not changed)')
        .option('-y, --yes', 'do not ask for confirmation on a terminal')
        .addHelpText('after', examples('ledger sandbox snapshot restore base', 'ledger sandbox snapshot restore --file test/fixtures/base.db --yes'))
        .action(action(runRestore)),
    )
    .addCommand(
      withPaging(clientCommand('list'))
        .description('The named snapshots, by name, with their size and when they were saved (sandbox clock)')
        .addHelpText('after', examples('ledger sandbox snapshot list', 'ledger sandbox snapshot list --json'))
        .action(action(runList)),
    )
    .addCommand(
      clientCommand('delete')
        .description('Delete a named snapshot')
        .argument('<name>', 'the snapshot to delete')
        .addHelpText('after', examples('ledger sandbox snapshot delete base'))
        .action(action(runDelete)),
    )
    .addHelpText('after', examples('ledger sandbox snapshot save base', 'ledger sandbox snapshot restore base', 'ledger sandbox start --snapshot base'));
}

export async function runSave(io: Io, name: string | undefined, options: { file?: string }): Promise<void> {
  const saved = await io.client().sandbox<Snapshot>('POST', '/sandbox/snapshots', { body: targetOf(io, name, options.file) });
  await io.show(saved, snapshotView('Saved'));
}

export async function runRestore(io: Io, name: string | undefined, options: { file?: string; yes?: boolean }): Promise<void> {
  const target = targetOf(io, name, options.file);
  if (!(await confirm(io, `Replace everything in the sandbox at ${io.config().baseUrl} with ${'name' in target ? `snapshot ${target.name}` : target.file}?`, options.yes))) {
    throw new UsageError('restore cancelled: nothing was changed');
  }
  const path = 'name' in target ? `/sandbox/snapshots/${encodeURIComponent(target.name)}/restore` : '/sandbox/snapshots/restore';
  const restored = await io.client().sandbox<Snapshot>('POST', path, 'file' in target ? { body: target } : {});
  await io.show(restored, snapshotView('Restored'));
}

export async function runList(io: Io, flags: PageFlags): Promise<void> {
  await io.show(await io.client().sandbox<{ items: Snapshot[] }>('GET', '/sandbox/snapshots', { query: pageQuery(flags) }), listView);
}

export async function runDelete(io: Io, name: string): Promise<void> {
  await io.show(await io.client().sandbox<{ name: string; deleted: true }>('DELETE', `/sandbox/snapshots/${encodeURIComponent(name)}`), {
    kind: 'custom',
    quiet: (r: { name: string }) => r.name,
    lines: (r: { name: string }, fmt) => [fmt.green(`Deleted snapshot ${r.name}.`)],
  });
}
