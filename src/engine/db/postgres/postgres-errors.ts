import type { StorageErrors } from '../storage.js';

/** SQLSTATE classes and codes that mean the server cannot take writes now (not the request's fault). */
const UNAVAILABLE: Record<string, string> = {
  '57P01': 'the server is shutting down',
  '57P02': 'the server crashed',
  '57P03': 'the server is starting up',
  '25006': 'the database is read-only',
  '53200': 'the server is out of memory',
  '53300': 'too many connections',
  '58030': 'an I/O error',
};

/** Node's errors for a server that cannot be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);

/** How PostgreSQL's SQLSTATEs read as the seam's failures (storage-errors.ts). pg's errors carry them as `code`. */
export const postgresErrors: StorageErrors = {
  storageFailure(error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string') return undefined;
    if (code === '53100') return { kind: 'full' };
    if (UNAVAILABLE[code]) return { kind: 'unavailable', reason: UNAVAILABLE[code] };
    // Class 08: the connection failed or was lost.
    if (/^08[0-9A-Z]{3}$/.test(code)) return { kind: 'unavailable', reason: 'the connection to PostgreSQL failed' };
    if (UNREACHABLE.has(code)) return { kind: 'unavailable', reason: `PostgreSQL cannot be reached (${code})` };
    return undefined;
  },
  isUniqueViolation: (error) =>
    error instanceof Error && (error as { code?: string }).code === '23505' && 'severity' in error,
};

/** A failure after which the same transaction, run again, may well succeed: a serialization failure or a deadlock. */
export const isRetryable = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '40001' || code === '40P01';
};
