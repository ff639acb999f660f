import type { Command } from '../../cli/command.js';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import type { Wallet } from '../../api/schemas/wallets.js';
import { UsageError } from '../../client/errors.js';
import { check, choicesOf, condition, refuseUnused, textCheck } from '../../client/validate.js';
import { activeWallets, chooseWallet } from '../../cli/wallet-picker.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, enumOption, examples } from '../../cli/options.js';
import { naira } from '../../text/format.js';
import { resolutionView, suspenseItemView } from '../../cli/output/views.js';
import { fetchAll, sandboxClock } from '../../cli/paging.js';
import { listPages, readOne } from '../../cli/remote.js';
import { choose, confirm, optionalInput, searchFor } from '../../cli/prompts.js';
import { checkRefund, type RefundCheck } from './refund-check.js';
import { resolveQuestion } from '../../text/refund.js';

const ACTIONS = choicesOf('ResolveSuspenseBody', 'action');
const ACTION_TEXT: Record<string, string> = {
  CREDIT_WALLET: 'credit one of your wallets',
  DISMISS: 'keep it off every wallet (moves to the dismissed account)',
  REFUND: 'send it back to the sender, no fee',
};
const FLAGS = { action: '--action', target_wallet_id: '--target-wallet', note: '--note' };

export interface ResolveOptions {
  action?: string;
  targetWallet?: string;
  note?: string;
  yes?: boolean;
  idempotencyKey?: string;
}

export function resolveCommand(): Command {
  return clientCommand('resolve')
    .argument('[suspense_id]', 'suspense item id (asked on a terminal when left out)')
    .addOption(enumOption('--action <action>', 'what to do with the payment', ACTIONS))
    .option('--target-wallet <wallet_id>', 'wallet to credit (CREDIT_WALLET only)')
    .option('--note <text>', 'resolution note, at most 500 characters')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger suspense resolve',
        'ledger suspense resolve "$ITEM" --action CREDIT_WALLET --target-wallet "$W" --note "confirmed by phone"',
        'ledger suspense resolve "$ITEM" --action REFUND    # needs the sender account and bank the payment came with',
      ),
    )
    .action(action(runResolve));
}

/** A payment can go back only to an account at a bank, and only when it came with both. */
const refundable = (item: SuspenseItem) => Boolean(item.sender_account && item.sender_bank_code);

/** Every wallet of the developer, closed ones too, for naming customers; none where the server has no wallet list. */
async function everyWallet(io: Io): Promise<Wallet[]> {
  return fetchAll(
    (page) => io.client().sandbox<{ items: Wallet[]; total: number }>('GET', '/sandbox/wallets', { query: page }),
    20,
  ).catch(() => []);
}

/**
 * The open items (PENDING and FLAGGED), oldest first, picked by typing: each labelled with whom it
 * was for (the wallet's customer, else the sender), the amount in naira, its age on the sandbox
 * clock and why it is held, and found by any of those or by its sender, narration, account,
 * customer reference, reference or id.
 */
async function pickItem(io: Io, wallets: Wallet[]): Promise<SuspenseItem> {
  // The open queue in one list, oldest first (at most 40 pages, the bound the two lists had together).
  const query = { status: 'PENDING,FLAGGED' };
  const pages = await listPages(io, '/v1/suspense', query);
  const open = await fetchAll(
    (page) => pages({ ...query, ...page }) as Promise<{ items: SuspenseItem[]; total: number }>,
    40,
  );
  if (open.length === 0) throw new UsageError('nothing to resolve: no PENDING or FLAGGED suspense items');
  const { age } = await import('../../cli/output/render.js');
  const clock = await sandboxClock(io);
  const now = clock ? new Date(clock.now) : new Date();
  const byId = new Map(wallets.map((w) => [w.id, w]));
  const customer = (item: SuspenseItem) => {
    const wallet = item.wallet_id ? byId.get(item.wallet_id) : undefined;
    return wallet ? `${wallet.first_name} ${wallet.last_name}` : item.sender_name;
  };
  const cut = (text: string, width: number) =>
    text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  const nameWidth = Math.min(24, Math.max(...open.map((item) => customer(item).length)));
  const amountWidth = Math.max(...open.map((item) => naira(item.amount).length));
  return searchFor(
    io,
    '<suspense_id>',
    'Which held payment? (type to filter)',
    open.map((item) => {
      const wallet = item.wallet_id ? byId.get(item.wallet_id) : undefined;
      return {
        name:
          `${cut(customer(item), nameWidth)}  ${naira(item.amount).padStart(amountWidth)}  ` +
          `${age(item.created_at, now).padStart(3)}  ` +
          `${item.reason}${item.status === 'FLAGGED' ? ' · FLAGGED' : ''}  "${item.raw_narration}"`,
        match: [
          item.sender_name,
          item.account_number,
          item.sender_account,
          wallet?.customer_reference,
          item.provider_reference,
          item.id,
        ].join(' '),
        value: item,
      };
    }),
    { showAll: true },
  );
}

/**
 * The wallet a person most likely means: the one the payment was for while it is active, else the
 * one active wallet of the same customer (same email, or same first and last name); none otherwise,
 * so the picker never offers a wallet just because it comes first.
 */
async function likelyTarget(io: Io, item: SuspenseItem, wallets: Wallet[]): Promise<string | undefined> {
  if (!item.wallet_id) return undefined;
  if (wallets.some((w) => w.id === item.wallet_id)) return item.wallet_id;
  const own = await io
    .client()
    .request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(item.wallet_id)}`)
    .catch(() => undefined);
  if (!own) return undefined;
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const matches = wallets.filter(
    (w) => same(w.email, own.email) || (same(w.first_name, own.first_name) && same(w.last_name, own.last_name)),
  );
  return matches.length === 1 ? matches[0]!.id : undefined;
}

/**
 * Script mode takes everything from flags; on a terminal the missing parts are asked, the item is
 * shown, and nothing moves until the person confirms.
 */
export async function runResolve(io: Io, id: string | undefined, options: ResolveOptions): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  const given = { action: options.action?.toUpperCase(), target_wallet_id: options.targetWallet, note: options.note };
  check('ResolveSuspenseBody', given, FLAGS, { partial: true });
  refuseUnused('ResolveSuspenseBody', given, FLAGS);
  if (!io.interactive()) {
    if (!id) throw new UsageError('missing <suspense_id> (no terminal to ask on)');
    if (!given.action) throw new UsageError('missing --action (no terminal to ask on)');
    if (condition('ResolveSuspenseBody', 'target_wallet_id', given)?.required && given.target_wallet_id === undefined) {
      throw new UsageError(`missing --target-wallet for ${given.action} (no terminal to ask on)`);
    }
  }
  // Only a person needs to see the item; a script goes straight to the resolve call.
  let item: SuspenseItem | undefined;
  let wallets: Wallet[] | undefined;
  if (io.interactive()) {
    if (id) item = await readOne<SuspenseItem>(io, '/sandbox/suspense/{}', '/v1/suspense', id, 'suspense item');
    else item = await pickItem(io, (wallets = await everyWallet(io)));
  }
  const itemId = id ?? item!.id;
  const offered = ACTIONS.filter((a) => a !== 'REFUND' || (item && refundable(item)));
  const chosen =
    given.action ??
    (await choose(
      io,
      '--action',
      'What should happen to it?',
      offered.map((a) => ({ name: `${a.padEnd(14)} ${ACTION_TEXT[a] ?? ''}`, value: a, short: a })),
    ));
  if (chosen === 'REFUND' && item && !refundable(item))
    throw new UsageError(
      'REFUND needs the sender account and bank code, and this payment came without them: CREDIT_WALLET or DISMISS it',
    );
  const refund = chosen === 'REFUND' ? await refundCheck(io, itemId, item) : undefined;
  let target = given.target_wallet_id;
  if (condition('ResolveSuspenseBody', 'target_wallet_id', { action: chosen })?.required && target === undefined) {
    const active = wallets ? wallets.filter((w) => w.status === 'ACTIVE') : await activeWallets(io, '--target-wallet');
    const suggested = item ? await likelyTarget(io, item, active) : undefined;
    target = await chooseWallet(
      io,
      '--target-wallet',
      'Credit which wallet? (type a name, account number or reference)',
      { none: 'no ACTIVE wallet to credit', suggested, wallets: active },
    );
    wallets ??= active;
  }
  const note =
    given.note ??
    (io.interactive() && !options.yes
      ? await optionalInput(io, 'Note (optional):', textCheck('ResolveSuspenseBody', 'note'))
      : undefined);
  const body = check('ResolveSuspenseBody', { action: chosen, target_wallet_id: target, note }, FLAGS);

  if (io.interactive() && !options.yes && item) {
    const { render } = await import('../../cli/output/render.js');
    const { clean } = await import('../../text/clean.js');
    const { fitted } = await import('../../text/wrap.js');
    io.announceTarget();
    render(io.stderr, item, suspenseItemView, { quiet: false, env: io.env });
    const credited = wallets?.find((w) => w.id === target);
    const whom = credited ? ` (${credited.first_name} ${credited.last_name}, ${credited.customer_reference})` : '';
    io.stderr.write(
      fitted(
        io.stderr,
        `\n${chosen}${target ? ` → wallet ${target}${whom}` : ''}${note ? ` · note "${clean(note)}"` : ''}\n`,
      ),
    );
    const question = resolveQuestion(item, refund);
    if (!(await confirm(io, question, false, { expected: String(item.amount), named: 'the amount in kobo' })))
      throw new UsageError('resolution cancelled: nothing moved');
  } else if (refund?.warning) {
    const { fitted } = await import('../../text/wrap.js');
    io.stderr.write(fitted(io.stderr, `Warning: ${refund.warning}.\n`));
  }
  const result = await io.client().request('POST', `/v1/suspense/${encodeURIComponent(itemId)}/resolve`, {
    body,
    idempotencyKey: options.idempotencyKey,
  });
  await io.show(result, resolutionView);
}

/**
 * Name enquiry before a REFUND is asked about or sent. A script has not fetched the item: it is read
 * here, and where the server cannot show it (no /sandbox), the refund goes ahead unchecked, as the
 * server's own name enquiry still refuses an account that does not exist.
 */
async function refundCheck(io: Io, id: string, item: SuspenseItem | undefined): Promise<RefundCheck | undefined> {
  const known =
    item ??
    (await readOne<SuspenseItem>(io, '/sandbox/suspense/{}', '/v1/suspense', id, 'suspense item').catch(
      () => undefined,
    ));
  if (!known || !refundable(known)) return undefined;
  if (io.interactive()) return checkRefund(io, known);
  return checkRefund(io, known).catch(() => undefined);
}
