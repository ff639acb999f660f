import type { Command } from '../command.js';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import { choicesOf } from '../../client/validate.js';
import type { Io } from '../io.js';
import { action, clientCommand, enumOption, examples } from '../options.js';
import { suspenseListView } from '../output/views.js';
import { listQuery, type PageFlags, showList, withPaging } from '../paging.js';

export function listCommand(): Command {
  return withPaging(clientCommand('list'))
    .addOption(enumOption('--status <status>', 'only items with this status', choicesOf('SuspenseListQuery', 'status')))
    .addOption(enumOption('--reason <reason>', 'only items held for this reason', choicesOf('SuspenseListQuery', 'reason')))
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
  const query = listQuery('SuspenseListQuery', options, { status: options.status?.toUpperCase(), reason: options.reason?.toUpperCase() });
  await showList(io, options, query, (q) => io.client().request<{ items: SuspenseItem[] }>('GET', '/v1/suspense', { query: q }), suspenseListView);
}
