import type { Command } from 'commander';
import type { TransferResult } from '../api/schemas/transactions.js';
import type { Io } from './io.js';
import { accountNumberOf } from './accounts.js';
import { action, clientCommand, examples, parseAmount } from './options.js';
import { transferView } from './output/views.js';

export interface TransferOptions {
  bank?: string;
  name?: string;
  narration?: string;
  idempotencyKey?: string;
  yes?: boolean;
}

export function transferCommand(): Command {
  return clientCommand('transfer')
    .description('Send money from a wallet to another of your wallets (instant, no fee) or to a bank account')
    .argument('<from_wallet_id>', 'source wallet id')
    .argument('<to>', 'destination account number, or one of your wallet ids')
    .argument('<amount>', 'kobo (500000 is ₦5,000.00)')
    .option('--bank <code>', 'destination bank code (needed for an account that is not one of your wallets)')
    .option('--name <account_name>', 'destination account name, as you expect it')
    .option('--narration <text>', 'narration, at most 100 characters', undefined)
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .option('-y, --yes', 'do not ask for confirmation on a terminal')
    .addHelpText(
      'after',
      examples(
        'ledger transfer "$FROM" "$TO_WALLET" 150000',
        'ledger transfer "$FROM" 0123456789 150000 --narration "May rent" --idempotency-key rent-may',
      ),
    )
    .action(action(runTransfer));
}

export async function runTransfer(io: Io, from: string, to: string, amount: string, options: TransferOptions): Promise<void> {
  const body = {
    destination_account_number: await accountNumberOf(io, to),
    amount: parseAmount(amount),
    ...(options.bank !== undefined ? { destination_bank_code: options.bank } : {}),
    ...(options.name !== undefined ? { destination_account_name: options.name } : {}),
    ...(options.narration !== undefined ? { narration: options.narration } : {}),
  };
  const result = await io.client().request<TransferResult>('POST', `/v1/wallets/${encodeURIComponent(from)}/transfer`, {
    body,
    idempotencyKey: options.idempotencyKey,
  });
  await io.show(result, transferView);
}
