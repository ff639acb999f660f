import { AmbiguousError, ApiError, EXIT, UnreachableError, UsageError } from '../client/errors.js';
import { clean } from '../text/clean.js';
import type { Stream } from './output/render.js';
import { fitted } from '../text/wrap.js';

export { EXIT };

/** A command that finished but must report failure (an audit with problems): the output is already printed. */
export class SilentFailure extends Error {
  constructor(readonly exitCode: number) {
    super('failed');
  }
}

/** Ctrl-C at a prompt (@inquirer's ExitPromptError): every question comes before anything is sent. */
function isCancelled(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}

/** The one place failures become `Error [CODE]: message` on stderr and an exit code. */
export function reportError(error: unknown, stream: Stream): number {
  const stderr = { write: (text: string) => stream.write(fitted(stream, text)) };
  if (error instanceof SilentFailure) return error.exitCode;
  if (isCancelled(error)) {
    stderr.write('cancelled, nothing was changed\n');
    return EXIT.CANCELLED;
  }
  if (error instanceof ApiError) {
    // A field whose line would only repeat the message (a refusal of one field) is not listed again.
    const fields = (error.fields ?? [])
      .filter((f) => `${f.field}: ${f.message}` !== error.message)
      .map((f) => `\n  ${clean(f.field)}: ${clean(f.message)}`)
      .join('');
    // The request's id, for support to find it (`ledger logs show <id>`); a service that gives none, nothing.
    const request = error.requestId ? ` (request ${clean(error.requestId)})` : '';
    stderr.write(`Error [${clean(error.code)}]: ${clean(error.message)}${request}${fields}\n`);
    return EXIT.REFUSED;
  }
  if (error instanceof UsageError) {
    const candidates =
      error instanceof AmbiguousError ? error.candidates.map((line) => `  ${clean(line)}\n`).join('') : '';
    stderr.write(`Error [${error.code}]: ${clean(error.message)}\n${candidates}`);
    return EXIT.USAGE;
  }
  if (error instanceof UnreachableError) {
    stderr.write(`Error [${error.code}]: ${clean(error.message)}\n`);
    return EXIT.UNREACHABLE;
  }
  const native = wrongNodeBuild(error);
  if (native) {
    stderr.write(`Error [NATIVE_MODULE]: ${clean(native)}\n`);
    return EXIT.REFUSED;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`Error [INTERNAL]: ${clean(message)}\n`);
  return EXIT.REFUSED;
}

/**
 * The database driver (better-sqlite3, a native module) built for another Node than the one
 * running: what a switch of Node versions after `npm install` leaves (nvm, a new LTS). Node's own
 * message names module versions only; this one names the package, both Nodes and the fix.
 */
function wrongNodeBuild(error: unknown): string | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== 'ERR_DLOPEN_FAILED') return undefined;
  const built = /NODE_MODULE_VERSION (\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(
    error.message,
  );
  const module = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(error.message);
  if (!built || !module) return undefined;
  const where = error.message.slice(error.message.indexOf("'") + 1, error.message.indexOf('node_modules'));
  return (
    `${module[1]} was built for another version of Node (module version ${built[1]}); ` +
    `this is Node ${process.version} (module version ${built[2]}). ` +
    `Rebuild it for this Node with \`npm rebuild ${module[1]}\`${where ? ` in ${where.replace(/[\\/]$/, '')}` : ''}, ` +
    `or run ledger with the Node it was installed with`
  );
}
