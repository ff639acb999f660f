import type { Command } from 'commander';
import type { Wallet } from '../../api/schemas/wallets.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { walletView } from '../output/views.js';

export function closeCommand(): Command {
  return clientCommand('close')
    .description('Close a wallet; its balance stays, and later inbound payments go to suspense')
    .argument('<wallet_id>', 'wallet id')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText('after', examples('ledger wallets close "$WALLET"'))
    .action(action(runClose));
}

export async function runClose(io: Io, walletId: string, options: { idempotencyKey?: string }): Promise<void> {
  const wallet = await io
    .client()
    .request<Wallet>('POST', `/v1/wallets/${encodeURIComponent(walletId)}/close`, { idempotencyKey: options.idempotencyKey });
  await io.show(wallet, walletView);
}
