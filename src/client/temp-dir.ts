import { mkdtempSync, rmdirSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from './errors.js';

/**
 * Checks, once and before anything starts, that a folder can be made in the temporary directory,
 * where an in-memory sandbox (`sandbox start --memory`, each scenario of `scenario run`) keeps its
 * database. A runner's TMPDIR that is missing, read-only or full is then one clear error, not the
 * same `mkdtemp` (or, full, ENOSPC) failure in every scenario.
 */
export function assertTempDirUsable(env: NodeJS.ProcessEnv): void {
  const dir = tmpdir();
  const named = env.TMPDIR ? `TMPDIR (${dir})` : `the temporary directory ${dir}`;
  const refuse = (problem: string) =>
    new ApiError(
      0,
      'TMPDIR_UNUSABLE',
      `${problem}: an in-memory sandbox keeps its database there; point TMPDIR at a directory you can write to`,
    );
  let free: number;
  try {
    rmdirSync(mkdtempSync(join(dir, 'ledger-check-')));
    const fs = statfsSync(dir);
    free = fs.bavail * fs.bsize;
  } catch (error) {
    throw refuse(`cannot make a folder in ${named} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
  // A new database is a copy of the build's template (about 300 KB) and then grows.
  if (free < MIN_FREE_BYTES) throw refuse(`${named} is full (${Math.floor(free / 1024)} KB free)`);
}

/** Less than this free in the temporary directory, and the first scenario would fail on ENOSPC. */
const MIN_FREE_BYTES = 1024 * 1024;
