import { statSync } from 'node:fs';
import { join } from 'node:path';

/** A snapshot's name: its file in the snapshot directory, so no separators and no leading dot. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const SNAPSHOT_NAME_RULE =
  'must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit';

/** How a snapshot file travels (`GET /sandbox/database`): an SQLite database file. */
export const SNAPSHOT_MEDIA_TYPE = 'application/vnd.sqlite3';

/** How a text snapshot travels (`GET /sandbox/database?format=json`): JSON Lines. */
export const TEXT_SNAPSHOT_MEDIA_TYPE = 'application/jsonl';

/** The formats a snapshot is written in, and the file name ending of a named one in each. */
export const SNAPSHOT_FORMATS = { sqlite: '.db', json: '.jsonl' } as const;
export type SnapshotFormat = keyof typeof SNAPSHOT_FORMATS;

/**
 * The file of the snapshot named `name` in `dir`: `<name>.db` or `<name>.jsonl`, whichever there
 * is (the newer, should a save have stopped between writing one and removing the other), else the
 * `.db` one, which is not there.
 */
export function namedSnapshotFile(dir: string, name: string): string {
  const found = Object.values(SNAPSHOT_FORMATS)
    .map((ending) => ({
      path: join(dir, `${name}${ending}`),
      stat: statSync(join(dir, `${name}${ending}`), { throwIfNoEntry: false }),
    }))
    .filter((f) => f.stat !== undefined)
    .sort((a, b) => b.stat!.mtimeMs - a.stat!.mtimeMs);
  return found[0]?.path ?? join(dir, `${name}${SNAPSHOT_FORMATS.sqlite}`);
}
