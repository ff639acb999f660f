import type { Command } from '../../cli/command.js';
import type { Wallet } from '../../api/schemas/wallets.js';
import { check, textCheck } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, clientCommand, examples } from '../../cli/options.js';
import { walletView } from '../../cli/output/views.js';
import { needTerminal, requireValue } from '../../cli/prompts.js';

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
        'ledger wallets create        # on a terminal: asks for each missing detail',
      ),
    )
    .action(action(runCreate));
}

const FLAGS = {
  customer_reference: '--customer-reference',
  first_name: '--first-name',
  last_name: '--last-name',
  email: '--email',
  label: '--label',
  system_prompt: '--system-prompt',
  sub_account_id: '--sub-account-id',
};

export async function runCreate(io: Io, options: CreateOptions): Promise<void> {
  check(
    'IdempotencyHeaders',
    { 'idempotency-key': options.idempotencyKey },
    { 'idempotency-key': '--idempotency-key' },
  );
  // Flags that were given are checked before anything is asked, so nobody answers questions in vain.
  const given = {
    customer_reference: options.customerReference,
    first_name: options.firstName,
    last_name: options.lastName,
    email: options.email,
  };
  check(
    'CreateWalletBody',
    { ...given, label: options.label, system_prompt: options.systemPrompt, sub_account_id: options.subAccountId },
    FLAGS,
    { partial: true },
  );
  needTerminal(
    io,
    ...Object.entries(given)
      .filter(([, value]) => value === undefined || value === '')
      .map(([field]) => FLAGS[field as keyof typeof given]),
  );
  const ask = (value: string | undefined, field: keyof typeof FLAGS, message: string) =>
    requireValue(io, value, FLAGS[field], message, textCheck('CreateWalletBody', field));
  const body = check(
    'CreateWalletBody',
    {
      customer_reference: await ask(options.customerReference, 'customer_reference', 'Customer reference'),
      first_name: await ask(options.firstName, 'first_name', 'First name'),
      last_name: await ask(options.lastName, 'last_name', 'Last name'),
      email: await ask(options.email, 'email', 'Email'),
      label: options.label,
      system_prompt: options.systemPrompt,
      allow_transfers_out: options.transfersOut === false ? false : undefined,
      sub_account_id: options.subAccountId,
    },
    FLAGS,
  );
  const wallet = await io
    .client()
    .request<Wallet>('POST', '/v1/wallets', { body, idempotencyKey: options.idempotencyKey });
  await io.show(wallet, walletView);
}
