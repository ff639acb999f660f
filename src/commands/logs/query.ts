import type { Command } from '../../cli/command.js';
import { readTime, sandboxClock } from '../../cli/filters.js';
import type { Io } from '../../cli/io.js';

/** The request log's filter flags, as commander hands them over. */
export interface LogFilterFlags {
  status?: string;
  path?: string;
  since?: string;
  idempotencyKey?: string;
}

/** `--status` and `--path`, which `logs list` and `logs tail` share. */
export function withLogFilters(command: Command): Command {
  return command
    .option('--status <status>', 'only this status (422) or class (4xx, 5xx, 2xx)')
    .option('--path <prefix>', 'only paths that start with this (/v1/wallets)');
}

/**
 * The filter flags as GET /sandbox/requests parameters: a class in any case (`4XX`), and `--since`
 * read as the other lists read it (an ISO time, today, yesterday or 24h back on the sandbox clock).
 */
export async function logQuery(io: Io, flags: LogFilterFlags): Promise<Record<string, string | undefined>> {
  const since = flags.since === undefined ? undefined : readTime(flags.since, '--since', 'start');
  const now = since?.relative ? await sandboxClock(io, `--since "${flags.since}"`) : new Date(0);
  return {
    status: flags.status?.toLowerCase(),
    path: flags.path,
    since: since?.at(now).toISOString(),
    idempotency_key: flags.idempotencyKey,
  };
}
