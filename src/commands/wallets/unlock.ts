import type { Command } from '../../cli/command.js';
import type { Wallet } from '../../api/schemas/wallets.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { walletView } from '../../cli/output/views.js';

export function unlockCommand(): Command {
  return clientCommand('unlock')
    .argument('<wallet_id>', 'wallet id')
    .option('--lock', 'set allow_transfers_out to false instead')
    .addHelpText('after', examples('ledger wallets unlock "$WALLET"', 'ledger wallets unlock "$WALLET" --lock'))
    .action(action(runUnlock));
}

export async function runUnlock(io: Io, walletId: string, options: { lock?: boolean }): Promise<void> {
  const wallet = await io.client().sandbox<Wallet>('PATCH', `/sandbox/wallets/${encodeURIComponent(walletId)}`, {
    body: { allow_transfers_out: !options.lock },
  });
  await io.show(wallet, walletView);
}
