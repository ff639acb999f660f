import type { StorageErrors } from '../storage.js';

/** An error shaped like better-sqlite3's, for the fault-injection seam. */
export function sqliteError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'SqliteError', code });
}

/** How SQLite's error codes read as the seam's failures (storage-errors.ts). */
export const sqliteErrors: StorageErrors = {
  storageFailure(error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
    if (
      code === 'SQLITE_FULL' ||
      (code === 'SQLITE_IOERR_WRITE' && /disk|space/i.test(String((error as Error).message)))
    )
      return { kind: 'full' };
    if (/^SQLITE_(READONLY|BUSY|LOCKED|IOERR|CANTOPEN|CORRUPT|NOTADB|PERM)/.test(code))
      return { kind: 'unavailable', reason: code.replace('SQLITE_', '').toLowerCase().replaceAll('_', ' ') };
    return undefined;
  },
  isUniqueViolation: (error) =>
    error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
};
