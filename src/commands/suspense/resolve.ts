import type { Command } from 'commander';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import { UsageError } from '../../client/errors.js';
import { naira } from '../output/format.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { resolutionView, suspenseItemView } from '../output/views.js';
import { chooseWallet } from '../accounts.js';
import { fetchAll } from '../paging.js';
import { choose, confirm, optionalInput } from '../prompts.js';
import { sandboxNow } from './list.js';

const ACTIONS = ['CREDIT_WALLET', 'DISMISS', 'REFUND'] as const;
type Action = (typeof ACTIONS)[number];

export interface ResolveOptions {
  action?: string;
  targetWallet?: string;
  note?: string;
  yes?: boolean;
  idempotencyKey?: string;
}

export function resolveCommand(): Command {
  return clientCommand('resolve')
    .description('Resolve a held payment. On a terminal, anything left out is asked: pick the item, the action and the target wallet')
    .argument('[suspense_id]', 'suspense item id (asked on a terminal when left out)')
    .option('--action <action>', ACTIONS.join(', '))
    .option('--target-wallet <wallet_id>', 'wallet to credit (CREDIT_WALLET)')
    .option('--note <text>', 'resolution note, at most 500 characters')
    .option('-y, --yes', 'do not ask for confirmation on a terminal')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger suspense resolve',
        'ledger suspense resolve "$ITEM" --action CREDIT_WALLET --target-wallet "$W" --note "confirmed by phone"',
        'ledger suspense resolve "$ITEM" --action REFUND',
      ),
    )
    .action(action(runResolve));
}

async function pickItem(io: Io): Promise<SuspenseItem> {
  const lists = await Promise.all(
    ['PENDING', 'FLAGGED'].map((status) =>
      fetchAll((page) => io.client().request<{ items: SuspenseItem[]; total: number }>('GET', '/v1/suspense', { query: { status, ...page } }), 20),
    ),
  );
  const open = lists.flat().sort((a, b) => a.created_at.localeCompare(b.created_at));
  if (open.length === 0) throw new UsageError('nothing to resolve: no PENDING or FLAGGED suspense items');
  const { age } = await import('../output/render.js');
  const now = await sandboxNow(io);
  return choose(
    io,
    '<suspense_id>',
    'Which held payment?',
    open.map((item) => ({
      name: `${naira(item.amount).padStart(14)}  ${item.reason.padEnd(17)}  ${age(item.created_at, now).padStart(4)}  ${item.sender_name} · "${item.raw_narration}"`,
      value: item,
    })),
  );
}


/**
 * Script mode takes everything from flags; on a terminal the missing parts are asked, the item is
 * shown, and nothing moves until the person confirms.
 */
export async function runResolve(io: Io, id: string | undefined, options: ResolveOptions): Promise<void> {
  const requested = options.action?.toUpperCase();
  if (requested !== undefined && !ACTIONS.includes(requested as Action)) throw new UsageError(`--action must be one of ${ACTIONS.join(', ')}`);
  if (!io.interactive()) {
    if (!id) throw new UsageError('missing <suspense_id> (no terminal to ask on)');
    if (!requested) throw new UsageError('missing --action (no terminal to ask on)');
    if (requested === 'CREDIT_WALLET' && !options.targetWallet) throw new UsageError('missing --target-wallet for CREDIT_WALLET (no terminal to ask on)');
  }
  // Only a person needs to see the item; a script goes straight to the resolve call.
  let item: SuspenseItem | undefined;
  if (io.interactive()) item = id ? await io.client().sandbox<SuspenseItem>('GET', `/sandbox/suspense/${encodeURIComponent(id)}`) : await pickItem(io);
  const itemId = id ?? item!.id;
  const chosen =
    (requested as Action | undefined) ??
    (await choose<Action>(io, '--action', 'What should happen to it?', [
      { name: 'CREDIT_WALLET  credit one of your wallets', value: 'CREDIT_WALLET' },
      { name: 'DISMISS        keep it off every wallet (moves to the dismissed account)', value: 'DISMISS' },
      { name: 'REFUND         send it back to the sender, no fee', value: 'REFUND' },
    ]));
  const target = chosen === 'CREDIT_WALLET' ? (options.targetWallet ?? (await chooseWallet(io, '--target-wallet', 'Credit which wallet? (type to search)', { none: 'no ACTIVE wallet to credit' }))) : undefined;
  const note = options.note ?? (io.interactive() && !options.yes ? await optionalInput(io, 'Note (optional):') : undefined);

  if (io.interactive() && !options.yes && item) {
    const { render } = await import('../output/render.js');
    render(io.stderr, item, suspenseItemView, { json: false, quiet: false, env: io.env });
    io.stderr.write(`\n${chosen}${target ? ` → wallet ${target}` : ''}${note ? ` · note "${note}"` : ''}\n`);
    if (!(await confirm(io, `Resolve this ${naira(item.amount)} payment?`, false))) throw new UsageError('resolution cancelled: nothing moved');
  }
  const result = await io.client().request('POST', `/v1/suspense/${encodeURIComponent(itemId)}/resolve`, {
    body: { action: chosen, ...(target ? { target_wallet_id: target } : {}), ...(note ? { note } : {}) },
    idempotencyKey: options.idempotencyKey,
  });
  await io.show(result, resolutionView);
}
