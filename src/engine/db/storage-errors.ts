import { LedgerError } from '../errors.js';
import { postgresErrors } from './postgres/postgres-errors.js';
import { sqliteErrors } from './sqlite/sqlite-errors.js';
import type { StorageErrors } from './storage.js';

/** One entry per backend: each knows its own driver's errors by their shape. */
const BACKENDS: readonly StorageErrors[] = [sqliteErrors, postgresErrors];

/**
 * What a failed write means for the caller (decisions: Storage): the disk is full (507), or the
 * database cannot be written at all (503: read-only, locked by another process, an I/O error, a file
 * that is gone). Undefined for any other error.
 * @example const failure = storageFailure(error); if (failure) reply(failure);
 */
export function storageFailure(error: unknown): LedgerError | undefined {
  if (error instanceof LedgerError)
    return error.code === 'STORAGE_FULL' || error.code === 'STORAGE_UNAVAILABLE' ? error : undefined;
  for (const backend of BACKENDS) {
    const refusal = backend.storageFailure(error);
    if (refusal?.kind === 'full')
      return new LedgerError('STORAGE_FULL', 'the disk is full: nothing was written; free some space and retry');
    if (refusal)
      return new LedgerError(
        'STORAGE_UNAVAILABLE',
        `the database cannot be written (${refusal.reason}): nothing was written; retry later`,
      );
  }
  return undefined;
}

/**
 * True when the error is the database refusing a UNIQUE constraint, on whichever backend.
 * @example try { await insertWallet(trx, row); } catch (error) { if (!isUniqueViolation(error)) throw error; }
 */
export function isUniqueViolation(error: unknown): boolean {
  return BACKENDS.some((backend) => backend.isUniqueViolation(error));
}
