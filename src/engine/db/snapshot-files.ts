import { closeSync, fsyncSync, openSync } from 'node:fs';
import { LedgerError } from '../errors.js';

/** The settings row of a binary snapshot file that describes it; never present in a live database, nor written into a text snapshot. */
export const SNAPSHOT_META = 'snapshot';

/** fsync of a file or a directory: what a crash-safe rename needs before and after. */
export function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A snapshot file that cannot be loaded for what it holds (decisions: Snapshots): 422, naming the field that gave it. */
export const snapshotInvalid = (field: string, problem: string, detail = problem) =>
  new LedgerError('SNAPSHOT_INVALID', `${field}: ${detail}`, [{ field, message: problem }]);

/** A snapshot file its backend finds damaged (SnapshotHooks.isDamaged). */
export const damagedSnapshot = (field: string, error: unknown) =>
  snapshotInvalid(field, 'is damaged', `is damaged (${(error as Error).message})`);
