import { z } from 'zod';
import {
  SNAPSHOT_FORMATS,
  SNAPSHOT_NAME,
  SNAPSHOT_NAME_RULE,
  type SnapshotFormat as Format,
} from '../snapshot-name.js';
import { Ok, optionalBody, Page, pageQuery, Timestamp } from './common.js';

export const SnapshotName = z.string({ error: 'must be a string' }).regex(SNAPSHOT_NAME, { error: SNAPSHOT_NAME_RULE });
const AbsolutePath = z
  .string({ error: 'must be a string' })
  .min(2, { error: 'must be an absolute path' })
  .max(4096, { error: 'must be at most 4096 characters' })
  .startsWith('/', { error: 'must be an absolute path (the server may run in another directory)' });

export const SnapshotParams = z.strictObject({ name: SnapshotName });

const SnapshotFormat = z
  .enum(Object.keys(SNAPSHOT_FORMATS) as [Format, ...Format[]], { error: 'must be sqlite or json' })
  .describe(
    'sqlite: the database file (the default, the fast path); json: deterministic JSON Lines, one row a line, to read in a review and to move between backends',
  );

// Only a name: the server writes snapshots in its own snapshot directory and nowhere else (a file
// of your choosing is a download: GET /sandbox/database).
export const SaveSnapshotBody = z.strictObject({ name: SnapshotName, format: SnapshotFormat.optional() });

export const DatabaseQuery = z.strictObject({ format: SnapshotFormat.optional() });

const Force = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .describe("true: load it without checking that its books balance (the server's log warns)");

export const RestoreFileBody = z.strictObject({ file: AbsolutePath, force: Force });

/** A named restore takes no body, or `{ force }`. */
export const RestoreBody = optionalBody(z.strictObject({ force: Force }));

export const SnapshotListQuery = z.strictObject(pageQuery);

export const Snapshot = z
  .object({
    name: z.string().nullable().describe('null for a snapshot written to or read from a file of your choosing'),
    file: z
      .string()
      .nullable()
      .describe('the path given with file, else null (named snapshots live in the snapshot directory)'),
    format: SnapshotFormat,
    size_bytes: z.int(),
    saved_at: Timestamp.nullable().describe(
      "when it was saved, on the owner's sandbox clock (null for a text snapshot, which holds no save time)",
    ),
  })
  .meta({ id: 'Snapshot' });
export type Snapshot = z.infer<typeof Snapshot>;

export const SnapshotResponse = Ok(Snapshot);
export const SnapshotPageResponse = Ok(Page(Snapshot));
export const DeletedSnapshotResponse = Ok(z.object({ name: z.string(), deleted: z.literal(true) }));
