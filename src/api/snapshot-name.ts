/** A snapshot's name: its file in the snapshot directory, so no separators and no leading dot. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const SNAPSHOT_NAME_RULE = 'must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit';

/** How a snapshot file travels (`GET /sandbox/database`): an SQLite database file. */
export const SNAPSHOT_MEDIA_TYPE = 'application/vnd.sqlite3';
