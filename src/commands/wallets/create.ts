import type { Command } from 'commander';
import type { Wallet } from '../../api/schemas/wallets.js';
import type { Io } from '../io.js';
import { action, clientCommand, examples } from '../options.js';
import { walletView } from '../output/views.js';
import { requireValue } from '../prompts.js';

export interface CreateOptions {
  customerReference?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  label?: string;
  systemPrompt?: string;
  transfersOut?: boolean;
  subAccountId?: string;
  idempotencyKey?: string;
}

export function createCommand(): Command {
  return clientCommand('create')
    .description('Create a wallet with a virtual NUBAN (asks for missing details on a terminal)')
    .option('--customer-reference <ref>', "your system's unique id for the user")
    .option('--first-name <name>', 'first name (KYC)')
    .option('--last-name <name>', 'last name (KYC)')
    .option('--email <email>', 'email (KYC)')
    .option('--label <label>', 'human-readable label (default: the full name)')
    .option('--system-prompt <text>', 'instruction that guides the narration analysis')
    .option('--no-transfers-out', 'create with allow_transfers_out false')
    .option('--sub-account-id <id>', 'link a provider sub-account')
    .option('--idempotency-key <key>', 'replay instead of repeating on a retry')
    .addHelpText(
      'after',
      examples(
        'ledger wallets create --customer-reference user-42 --first-name Ada --last-name Obi --email ada@example.com',
        'WALLET=$(ledger wallets create --customer-reference u1 --first-name Ada --last-name Obi --email a@x.ng --quiet)',
      ),
    )
    .action(action(runCreate));
}

export async function runCreate(io: Io, options: CreateOptions): Promise<void> {
  const body = {
    customer_reference: await requireValue(io, options.customerReference, '--customer-reference', 'Customer reference'),
    first_name: await requireValue(io, options.firstName, '--first-name', 'First name'),
    last_name: await requireValue(io, options.lastName, '--last-name', 'Last name'),
    email: await requireValue(io, options.email, '--email', 'Email'),
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.systemPrompt !== undefined ? { system_prompt: options.systemPrompt } : {}),
    ...(options.transfersOut === false ? { allow_transfers_out: false } : {}),
    ...(options.subAccountId !== undefined ? { sub_account_id: options.subAccountId } : {}),
  };
  const wallet = await io.client().request<Wallet>('POST', '/v1/wallets', { body, idempotencyKey: options.idempotencyKey });
  await io.show(wallet, walletView);
}
