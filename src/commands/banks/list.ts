import type { Command } from '../../cli/command.js';
import type { Bank } from '../../api/schemas/banks.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { bankListView } from '../../cli/output/views.js';
import { withFormat } from '../../cli/paging.js';

export function listCommand(): Command {
  return withFormat(clientCommand('list'))
    .option('-s, --search <text>', 'only banks whose name or code contains this, or known by it (GTBank, UBA, FCMB)')
    .addHelpText(
      'after',
      examples(
        'ledger banks list',
        'ledger banks list --search kuda',
        'ledger banks list --search gtbank',
        'ledger banks list --json',
      ),
    )
    .action(action(runList));
}

/** Names people use that are neither in a bank's name nor its initials. */
const KNOWN_AS: Record<string, string[]> = { '058': ['gtbank', 'gtco'], '011': ['firstbank'] };

/** The initials a bank goes by: Guaranty Trust Bank is GTB, United Bank for Africa UBA, First City Monument Bank FCMB. */
const initials = (name: string) =>
  name
    .split(/[\s()]+/)
    .filter((word) => word && !['of', 'for', 'and', 'the'].includes(word.toLowerCase()))
    .map((word) => word[0]!.toLowerCase())
    .join('');

/** A bank matches by its name, its code, its initials (three letters or more), or a name it is known by. */
export function bankMatches(bank: Bank, search: string): boolean {
  const needle = search.trim().toLowerCase();
  const abbreviation = initials(bank.name);
  return (
    bank.name.toLowerCase().includes(needle) ||
    bank.code.includes(needle) ||
    (needle.length >= 3 && abbreviation.startsWith(needle)) ||
    (abbreviation.length >= 3 && needle.startsWith(abbreviation)) ||
    (KNOWN_AS[bank.code] ?? []).some((alias) => alias.startsWith(needle.replace(/\s+/g, '')))
  );
}

/** `--search` narrows the list on this side; `--json` prints the same `{ items }` shape, narrowed. */
export async function runList(io: Io, options: { search?: string }): Promise<void> {
  const data = await io.client().request<{ items: Bank[] }>('GET', '/v1/banks');
  const items = options.search ? data.items.filter((b) => bankMatches(b, options.search!)) : data.items;
  await io.show({ items }, bankListView);
}
