import type { Command } from '../../cli/command.js';
import type { RequestLogEntry } from '../../api/schemas/requests.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, examples, sandboxCommand } from '../../cli/options.js';
import { followInterval, pause, untilStopped } from '../../cli/follow.js';
import { requestNumberOf } from '../../api/request-id.js';
import { type LogFilterFlags, logQuery, withLogFilters } from './query.js';

/** The log's order: the number a request id spells (none, before any request). */
const numberOf = (id: string | undefined): number => (id === undefined ? 0 : (requestNumberOf(id) ?? 0));

export function tailCommand(): Command {
  return withLogFilters(sandboxCommand('tail'))
    .option('--interval <seconds>', 'seconds between reads of the request log', '1')
    .addHelpText(
      'after',
      examples('ledger logs tail', 'ledger logs tail --status 4xx --path /v1/wallets', 'ledger logs tail --json') +
        '\nEach line: time on the sandbox clock, method, path, status, error code, milliseconds and request id. ' +
        'Requests made before it started are not shown. Ctrl-C stops it (exit 0); ' +
        'a sandbox that stops or cannot be reached ends it with exit 3.\n',
    )
    .action(action(runTail));
}

/**
 * Follows the request log until Ctrl-C: a line per new request for people, or the log entry, one
 * JSON object per line, with --json. It reads GET /sandbox/requests every `--interval` seconds
 * (that route is not logged itself, so following the log adds nothing to it).
 */
export async function runTail(
  io: Io,
  options: LogFilterFlags & { interval?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const interval = followInterval(options.interval, '1');
  const query = check(
    'RequestLogQuery',
    { ...(await logQuery(io, options)), limit: 100, order: 'desc' },
    { status: '--status', path: '--path' },
  );
  const { formatter } = await import('../../cli/output/render.js');
  const { clean } = await import('../../text/clean.js');
  const fmt = formatter(io.stdout, io.env);
  const read = (page: number) =>
    io
      .client()
      .sandbox<{ items: RequestLogEntry[]; total: number }>('GET', '/sandbox/requests', { query: { ...query, page } });
  const print = (entry: RequestLogEntry) => {
    if (io.flags.json) return io.stdout.write(`${JSON.stringify(entry)}\n`);
    if (io.flags.quiet) return io.stdout.write(`${entry.id}\n`);
    const status = String(entry.status);
    return io.stdout.write(
      [
        entry.at.replace('T', ' ').replace(/\.\d+Z$/, ''),
        entry.method.padEnd(6),
        clean(entry.path),
        entry.status >= 400 ? fmt.red(status) : status,
        ...(entry.code ? [clean(entry.code)] : []),
        `${entry.duration_ms} ms`,
        entry.id,
      ].join('  ') + '\n',
    );
  };
  const { signal, release } = untilStopped(options.signal);
  try {
    let last = numberOf((await read(1)).items[0]?.id);
    io.stderr.write('Following requests; Ctrl-C to stop.\n');
    for (;;) {
      await pause(interval * 1000, signal);
      if (signal.aborted) return;
      // Newest first, a page at a time, back to the last one shown: then printed oldest first.
      const fresh: RequestLogEntry[] = [];
      for (let page = 1; ; page++) {
        const { items } = await read(page);
        const newer = items.filter((entry) => numberOf(entry.id) > last);
        fresh.push(...newer);
        if (newer.length < items.length || items.length < 100) break;
      }
      for (const entry of fresh.reverse()) print(entry);
      if (fresh.length > 0) last = numberOf(fresh[fresh.length - 1]!.id);
    }
  } finally {
    release();
  }
}
