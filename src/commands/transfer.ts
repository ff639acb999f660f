import type { Command } from 'commander';
import type { ResolvedAccount } from '../api/schemas/banks.js';
import { nipFee } from '../api/fees.js';
import type { TransferResult } from '../api/schemas/transactions.js';
import { UsageError } from '../client/errors.js';
import { confirm } from './prompts.js';
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
    .description('Send money to another of your wallets (instant, no fee) or to a bank account (--bank: NIP fee, PENDING until the provider settles; a terminal shows the name and fee and asks first)')
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
        'ledger transfer "$FROM" 0123456789 150000 --bank 058 --narration "May rent" --idempotency-key rent-may',
        'ledger transfer "$FROM" 1111111111 50000 --bank 044 --yes   # a payout that fails and is reversed',
      ),
    )
    .action(action(runTransfer));
}

export async function runTransfer(io: Io, from: string, to: string, amount: string, options: TransferOptions): Promise<void> {
  const kobo = parseAmount(amount);
  const destination = await accountNumberOf(io, to);
  if (options.bank !== undefined && io.interactive() && !options.yes) await confirmPayout(io, destination, options.bank, kobo);
  const body = {
    destination_account_number: destination,
    amount: kobo,
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

/** On a terminal, a payout to a bank account shows who it will reach and what it costs, and asks first. */
async function confirmPayout(io: Io, accountNumber: string, bankCode: string, amount: number): Promise<void> {
  const resolved = await io.client().request<ResolvedAccount>('POST', '/v1/banks/resolve', { body: { account_number: accountNumber, bank_code: bankCode } });
  const fee = nipFee(amount);
  const { formatter } = await import('./output/render.js');
  const fmt = formatter(io.stderr, io.env);
  io.stderr.write(
    [
      `To      ${fmt.bold(resolved.account_name)} · ${accountNumber} · bank ${bankCode}`,
      `Amount  ${fmt.money(amount)}`,
      `Fee     ${fmt.money(fee)}${bankCode === '035' ? fmt.dim(' (none if it is one of your own wallets)') : ''}`,
      `Total   ${fmt.money(amount + fee)}`,
      '',
    ].join('\n'),
  );
  if (!(await confirm(io, 'Send this transfer?', false))) throw new UsageError('transfer cancelled: nothing was sent');
}
