import type { Command } from '../cli/command.js';
import type { SearchMatch, SearchResult } from '../api/schemas/search.js';
import { check, choicesOf, wholeNumber } from '../client/validate.js';
import { EXIT, SilentFailure } from '../cli/errors.js';
import type { Io } from '../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../cli/options.js';
import type { Formatter, View } from '../cli/output/views.js';
import { offers } from '../cli/remote.js';

export function findCommand(): Command {
  return clientCommand('find')
    .argument(
      '<text...>',
      'an id or its start, a provider reference, an account number, or words of a name or narration',
    )
    .addOption(enumOption('--kind <kind>', 'only this kind of record', choicesOf('SearchQuery', 'kind')))
    .option('--limit <n>', 'at most this many of each kind, at most 100', '10')
    .addHelpText(
      'after',
      `\nMatches, grouped by kind and newest first, each with the command that shows it in full.
Exit 1 when nothing matches, as grep does.${examples(
        'ledger find ada',
        'ledger find 000013260101120000123456789012',
        'ledger find "school fees" --kind transaction --json',
      )}`,
    )
    .action(action(runFind));
}

export async function runFind(io: Io, words: string[], options: { kind?: string; limit?: string }): Promise<void> {
  const query = check(
    'SearchQuery',
    { q: words.join(' '), kind: options.kind, limit: wholeNumber(options.limit ?? '10', '--limit') },
    { q: '<text>', kind: '--kind', limit: '--limit' },
  );
  // A service without the sandbox's search is searched here, through what its seed lists hold.
  const result = (await offers(io, 'GET', '/sandbox/search'))
    ? await io.client().sandbox<SearchResult>('GET', '/sandbox/search', { query })
    : await (await import('../cli/find-seed.js')).searchSeed(io, query);
  // Nothing found prints nothing on stdout but the API's data under --json: a script can count on `find … | wc -l`.
  if (result.items.length > 0 || io.flags.json) await io.show(result, findView);
  if (result.items.length === 0) {
    io.note(`Nothing of yours matches "${query.q}".`);
    throw new SilentFailure(EXIT.REFUSED);
  }
}

/** Each kind's heading and the command that shows one of its records in full. */
const KINDS: Record<SearchMatch['kind'], { title: string; show: string }> = {
  wallet: { title: 'Wallets', show: 'ledger wallets get' },
  transaction: { title: 'Transactions', show: 'ledger transactions get' },
  suspense_item: { title: 'Suspense items', show: 'ledger suspense show' },
  webhook_log: { title: 'Webhook deliveries', show: 'ledger webhooks show' },
  agent: { title: 'Agents', show: 'ledger agents runs' },
};

const time = (iso: string) => iso.replace('T', ' ').replace(/:\d\d\.\d+Z$/, '');

/** What tells a match apart for a person, on one line (wrapped when the terminal is narrow). */
function summary(match: SearchMatch, fmt: Formatter): string {
  const parts = ((): string[] => {
    switch (match.kind) {
      case 'wallet':
        return [
          `${match.customer_name ?? '—'} (${match.customer_reference})`,
          match.account_number,
          fmt.money(match.balance),
          fmt.status(match.status),
        ];
      case 'transaction':
        return [
          time(match.created_at),
          match.type,
          fmt.money(match.amount),
          fmt.status(match.status),
          match.customer_name ?? match.wallet_id,
          `from ${match.sender_name}`,
          `"${match.raw_narration}"`,
        ];
      case 'suspense_item':
        return [
          time(match.created_at),
          fmt.money(match.amount),
          fmt.status(match.status),
          match.reason,
          `from ${match.sender_name}`,
          `to ${match.customer_name ?? match.account_number}`,
          `"${match.raw_narration}"`,
        ];
      case 'webhook_log':
        return [
          time(match.created_at),
          match.event_type,
          fmt.status(match.status),
          `${match.attempt_count} attempts`,
          ...(match.wallet_id ? [`wallet ${match.wallet_id}`] : []),
        ];
      case 'agent':
        return [match.name, `${match.trigger} → ${match.action}`, match.is_active ? 'on' : 'off'];
    }
  })();
  return `  ${parts.join('  ')}  ${fmt.dim(`matched ${match.matched}`)}`;
}

export const findView: View = {
  kind: 'custom',
  quiet: (result: SearchResult) => result.items.map((m) => m.id).join('\n'),
  lines: (result: SearchResult, fmt) => {
    const lines: string[] = [];
    for (const [kind, { title, show }] of Object.entries(KINDS) as [
      SearchMatch['kind'],
      (typeof KINDS)[SearchMatch['kind']],
    ][]) {
      const matches = result.items.filter((m) => m.kind === kind);
      if (matches.length === 0) continue;
      const more = result.more.includes(kind);
      if (lines.length > 0) lines.push('');
      lines.push(
        `${fmt.bold(title)} ${fmt.dim(more ? `(newest ${matches.length}; more match: add words or --limit)` : `(${matches.length})`)}`,
      );
      for (const match of matches) lines.push(...fmt.wrap(summary(match, fmt), 4), `    ${show} ${match.id}`);
    }
    return lines;
  },
};
