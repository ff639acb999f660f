import type { Command } from '../../cli/command.js';
import type { Wallet } from '../../api/schemas/wallets.js';
import { UsageError } from '../../client/errors.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { money } from '../../text/format.js';
import { walletView } from '../../cli/output/views.js';
import { confirm } from '../../cli/prompts.js';

export function closeCommand(): Command {
  return clientCommand('close')
    .argument('<wallet_id>', 'wallet id')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText('after', examples('ledger wallets close "$WALLET"', 'ledger wallets close "$WALLET" --yes --json'))
    .action(action(runClose));
}

/** On a terminal, shows the wallet and the balance that will stay on it, and asks first. */
export async function runClose(
  io: Io,
  walletId: string,
  options: { yes?: boolean; idempotencyKey?: string },
): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  const path = `/v1/wallets/${encodeURIComponent(walletId)}`;
  if (io.interactive() && !options.yes) {
    const wallet = await io.client().request<Wallet>('GET', path);
    const { clean } = await import('../../text/clean.js');
    const { fitted } = await import('../../text/wrap.js');
    io.announceTarget();
    io.stderr.write(
      fitted(
        io.stderr,
        `${clean(wallet.account_name)} · ${wallet.account_number} · ${clean(wallet.customer_reference)}\n` +
          `Balance ${money(wallet.balance)} stays on the wallet; later payments to ${wallet.account_number} go to suspense.\n`,
      ),
    );
    if (
      !(await confirm(io, `Close wallet ${wallet.account_number}?`, false, {
        expected: wallet.account_number,
        named: 'the account number',
      }))
    )
      throw new UsageError('close cancelled: nothing was changed');
  }
  const closed = await io.client().request<Wallet>('POST', `${path}/close`, { idempotencyKey: options.idempotencyKey });
  await io.show(closed, walletView);
}
