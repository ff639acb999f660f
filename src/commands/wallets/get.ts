import type { Command } from '../../cli/command.js';
import type { Wallet } from '../../api/schemas/wallets.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { walletView } from '../../cli/output/views.js';

export function getCommand(): Command {
  return clientCommand('get')
    .argument('<wallet_id>', 'wallet id')
    .addHelpText('after', examples('ledger wallets get "$WALLET"', 'ledger wallets get "$WALLET" --json'))
    .action(action(runGet));
}

export async function runGet(io: Io, walletId: string): Promise<void> {
  const wallet = await io.client().request<Wallet>('GET', `/v1/wallets/${encodeURIComponent(walletId)}`);
  await io.show(wallet, walletView);
}
