import { ApiError, UnreachableError, UsageError } from '../client/errors.js';
import type { Stream } from './output/render.js';

/** Documented exit codes (contract §9). */
export const EXIT = { OK: 0, REFUSED: 1, USAGE: 2, UNREACHABLE: 3 } as const;

/** A command that finished but must report failure (an audit with problems): the output is already printed. */
export class SilentFailure extends Error {
  constructor(readonly exitCode: number) {
    super('failed');
  }
}

/** The one place failures become `Error [CODE]: message` on stderr and an exit code. */
export function reportError(error: unknown, stderr: Stream): number {
  if (error instanceof SilentFailure) return error.exitCode;
  if (error instanceof ApiError) {
    const fields = (error.fields ?? []).map((f) => `\n  ${f.field}: ${f.message}`).join('');
    stderr.write(`Error [${error.code}]: ${error.message}${fields}\n`);
    return EXIT.REFUSED;
  }
  if (error instanceof UsageError) {
    stderr.write(`Error [USAGE]: ${error.message}\n`);
    return EXIT.USAGE;
  }
  if (error instanceof UnreachableError) {
    stderr.write(`Error [UNREACHABLE]: ${error.message}\n`);
    return EXIT.UNREACHABLE;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`Error [INTERNAL]: ${message}\n`);
  return EXIT.REFUSED;
}
