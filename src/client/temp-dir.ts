import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from './errors.js';

/**
 * Checks, once and before anything starts, that a folder can be made in the temporary directory,
 * where an in-memory sandbox (`sandbox start --memory`, each scenario of `scenario run`) keeps its
 * database. A runner's TMPDIR that is missing, read-only or full is then one clear error, not the
 * same `mkdtemp` failure in every scenario.
 */
export function assertTempDirUsable(env: NodeJS.ProcessEnv): void {
  const dir = tmpdir();
  try {
    rmdirSync(mkdtempSync(join(dir, 'ledger-check-')));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const named = env.TMPDIR ? `TMPDIR (${dir})` : `the temporary directory ${dir}`;
    throw new ApiError(0, 'TMPDIR_UNUSABLE', `cannot make a folder in ${named} (${code}): an in-memory sandbox keeps its database there; point TMPDIR at a directory you can write to`);
  }
}
