import type { Command } from 'commander';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import { UsageError } from '../../client/errors.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { suspenseListView } from '../output/views.js';
import { pageQuery, type PageFlags, withPaging } from '../paging.js';

const STATUSES = ['PENDING', 'RESOLVED', 'FLAGGED'];
const REASONS = ['WALLET_CLOSED', 'AI_LOW_CONFIDENCE', 'AI_RISK_FLAG'];

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .description('List held payments, oldest first, with their amount and age')
    .option('--status <status>', STATUSES.join(', '))
    .option('--reason <reason>', REASONS.join(', '))
    .addHelpText('after', examples('ledger suspense list --status PENDING', 'ledger suspense list --reason AI_RISK_FLAG --json'))
    .action(action(runList));
}

/** The sandbox clock for ages (the clock may be far ahead of real time); real time elsewhere. */
export async function sandboxNow(io: Io): Promise<Date> {
  if (io.flags.json || io.flags.quiet) return new Date();
  try {
    return new Date((await io.client().request<{ now: string }>('GET', '/sandbox/clock')).now);
  } catch {
    return new Date();
  }
}

export async function runList(io: Io, options: PageFlags & { status?: string; reason?: string }): Promise<void> {
  const status = options.status?.toUpperCase();
  const reason = options.reason?.toUpperCase();
  if (status !== undefined && !STATUSES.includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  if (reason !== undefined && !REASONS.includes(reason)) throw new UsageError(`--reason must be one of ${REASONS.join(', ')}`);
  const page = await io.client().request<{ items: SuspenseItem[] }>('GET', '/v1/suspense', { query: { ...pageQuery(options), status, reason } });
  await io.show(page, suspenseListView, { now: await sandboxNow(io) });
}
