import { resolve } from 'node:path';
import type { Command } from '../../cli/command.js';
import type { Snapshot } from '../../api/schemas/snapshots.js';
import {
  SNAPSHOT_FORMATS,
  SNAPSHOT_MEDIA_TYPE,
  type SnapshotFormat,
  TEXT_SNAPSHOT_MEDIA_TYPE,
} from '../../api/snapshot-name.js';
import { ApiError, UsageError } from '../../client/errors.js';
import { servingPid } from '../../client/served-database.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, enumOption, sandboxCommand, examples } from '../../cli/options.js';
import { clean } from '../../text/clean.js';
import { fitted } from '../../text/wrap.js';
import type { View } from '../../cli/output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../../cli/paging.js';
import { confirm } from '../../cli/prompts.js';

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
const label = (s: Snapshot) => clean(s.name ?? s.file ?? '');
const formatName = (s: Snapshot) => (s.format === 'json' ? 'text (JSON Lines)' : 'SQLite');

const snapshotView = (verb: string): View => ({
  kind: 'custom',
  quiet: label,
  lines: (s: Snapshot, fmt) => [
    fmt.green(`${verb} ${s.name ? `snapshot ${fmt.bold(label(s))}` : label(s)}`),
    // A text snapshot holds no save time: the same state gives the same file.
    fmt.dim(
      `${size(s.size_bytes)}, ${formatName(s)}${s.format === 'json' ? '' : `, saved at ${s.saved_at ?? 'an unknown time'} (sandbox clock)`}`,
    ),
  ],
});

const listView: View = {
  kind: 'list',
  id: 'label',
  noun: 'snapshot',
  empty: 'No snapshots yet. Save one with `ledger sandbox snapshot save <name>`.',
  derive: (s: Snapshot) => ({ label: label(s), size: size(s.size_bytes) }),
  columns: [
    { label: 'Name', key: 'label', kind: 'text' },
    { label: 'Format', key: 'format', kind: 'fixed' },
    { label: 'Size', key: 'size', kind: 'fixed' },
    { label: 'Saved', key: 'saved_at', kind: 'fixed' },
  ],
};

/** Exactly one of a name and --file, checked against the API's rules (exit 2 before any request). */
function targetOf(io: Io, name: string | undefined, file: string | undefined): { name: string } | { file: string } {
  if ((name === undefined) === (file === undefined))
    throw new UsageError('give a snapshot name or --file PATH (one of them)');
  // The server may run in another directory: it gets an absolute path.
  return name !== undefined
    ? check('SaveSnapshotBody', { name }, { name: '<name>' })
    : check('RestoreFileBody', { file: resolve(io.cwd, file!) }, { file: '--file' });
}

/**
 * Downloads the whole sandbox (GET /sandbox/database) into `file` on this machine: the server writes
 * snapshots only in its own snapshot directory. Never over a database a live sandbox serves.
 */
async function saveToFile(io: Io, file: string, format: SnapshotFormat): Promise<Snapshot> {
  const pid = servingPid(file);
  if (pid !== undefined)
    throw new UsageError(
      `--file ${file} is the database of a running sandbox (pid ${pid}): a snapshot is a file of its own`,
    );
  try {
    const text = format === 'json';
    const { size, headers } = await io
      .client()
      .download(
        text ? '/sandbox/database?format=json' : '/sandbox/database',
        text ? TEXT_SNAPSHOT_MEDIA_TYPE : SNAPSHOT_MEDIA_TYPE,
        file,
      );
    const savedAt = !text && typeof headers['snapshot-saved-at'] === 'string' ? headers['snapshot-saved-at'] : null;
    return { name: null, file, format, size_bytes: size, saved_at: savedAt };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A full disk here is what the sandbox calls it (decisions: Storage), not a usage error.
    if (code === 'ENOSPC')
      throw new ApiError(
        507,
        'STORAGE_FULL',
        `--file ${file}: the disk is full: nothing was written; free some space and retry`,
      );
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
      throw new UsageError(
        `--file ${file} cannot be written (${code}${code === 'ENOENT' ? ': no such directory' : ''})`,
      );
    throw error;
  }
}

export function saveCommand(): Command {
  return sandboxCommand('save')
    .argument('[name]', 'letters, digits, dots, dashes, underscores (replaces a snapshot of that name)')
    .option('--file <path>', 'download the snapshot into this file on this machine instead (a fixture to commit, say)')
    .addOption(
      enumOption(
        '--format <format>',
        'sqlite (the default: the database file, the fast path) or json (JSON Lines, one row a line: ' +
          'the same state gives the same bytes, to review in a diff and to move between backends)',
        Object.keys(SNAPSHOT_FORMATS),
      ),
    )
    .addHelpText(
      'after',
      examples(
        'ledger sandbox snapshot save base',
        'ledger sandbox snapshot save --file test/fixtures/base.db --json',
        'ledger sandbox snapshot save --file test/fixtures/base.jsonl --format json',
      ),
    )
    .action(
      action(async (io: Io, name: string | undefined, options: { file?: string; format?: SnapshotFormat }) => {
        const target = targetOf(io, name, options.file);
        const format = options.format ?? 'sqlite';
        if (!(format in SNAPSHOT_FORMATS))
          throw new UsageError(`--format ${format}: must be one of ${Object.keys(SNAPSHOT_FORMATS).join(', ')}`);
        const saved =
          'name' in target
            ? await io.client().sandbox<Snapshot>('POST', '/sandbox/snapshots', {
                body: options.format ? { ...target, format } : target,
              })
            : await saveToFile(io, target.file, format);
        await io.show(saved, snapshotView('Saved'));
      }),
    );
}

/** A restore puts the snapshot's data in place whole, whatever was there: repeating one changes nothing more. */
const RESTORE_BEFORE_REPEATING =
  'a restore repeated does no harm (it puts the snapshot in place whole, whatever your sandbox holds then): repeat it if unsure';

export function restoreCommand(): Command {
  return sandboxCommand('restore')
    .argument('[name]', 'a snapshot saved with `snapshot save <name>`')
    .option(
      '--file <path>',
      'restore from this file instead: an SQLite or a text (--format json) snapshot, ' +
        'told apart by its first bytes (older ones are migrated; the file is not changed)',
    )
    .option(
      '--force',
      'load it even if its books do not balance (its audit is skipped; exit 1 SNAPSHOT_INVALID otherwise)',
    )
    .addHelpText(
      'after',
      examples(
        'ledger sandbox snapshot restore base',
        'ledger sandbox snapshot restore --file test/fixtures/base.db --yes',
      ),
    )
    .action(
      action(async (io: Io, name: string | undefined, options: { file?: string; yes?: boolean; force?: boolean }) => {
        const target = targetOf(io, name, options.file);
        const what = 'name' in target ? `snapshot ${target.name}` : target.file;
        if (
          !(await confirm(io, `Replace everything in the sandbox at ${io.config().baseUrl} with ${what}?`, options.yes))
        ) {
          throw new UsageError('restore cancelled: nothing was changed');
        }
        const path =
          'name' in target
            ? `/sandbox/snapshots/${encodeURIComponent(target.name)}/restore`
            : '/sandbox/snapshots/restore';
        const force = options.force ? { force: true } : {};
        if (options.force)
          io.stderr.write(
            fitted(
              io.stderr,
              `Warning: --force: ${what} is restored without the audit of its books; they may not balance.\n`,
            ),
          );
        const body = 'file' in target ? { ...target, ...force } : options.force ? force : undefined;
        const restored = await io
          .client()
          .sandbox<Snapshot>('POST', path, { ...(body ? { body } : {}), beforeRepeating: RESTORE_BEFORE_REPEATING });
        await io.show(restored, snapshotView('Restored'));
      }),
    );
}

export function listCommand(): Command {
  return withPaging(sandboxCommand('list'))
    .addHelpText('after', examples('ledger sandbox snapshot list', 'ledger sandbox snapshot list --json'))
    .action(
      action(async (io: Io, flags: PageFlags) => {
        await showList(
          io,
          flags,
          listQuery('PageQuery', flags),
          (q) => io.client().sandbox<{ items: Snapshot[] }>('GET', '/sandbox/snapshots', { query: q }),
          listView,
        );
      }),
    );
}

export function deleteCommand(): Command {
  return sandboxCommand('delete')
    .argument('<name>', 'the snapshot to delete')
    .addHelpText('after', examples('ledger sandbox snapshot delete base'))
    .action(
      action(async (io: Io, name: string) => {
        check('SaveSnapshotBody', { name }, { name: '<name>' });
        await io.show(
          await io
            .client()
            .sandbox<{ name: string; deleted: true }>('DELETE', `/sandbox/snapshots/${encodeURIComponent(name)}`),
          {
            kind: 'custom',
            quiet: (r: { name: string }) => r.name,
            lines: (r: { name: string }, fmt) => [fmt.green(`Deleted snapshot ${clean(r.name)}.`)],
          },
        );
      }),
    );
}
