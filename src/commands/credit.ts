import type { Command } from 'commander';
import type { Io } from './io.js';
import { accountNumberOf } from './accounts.js';
import { action, clientCommand, examples, parseAmount } from './options.js';
import type { View } from './output/views.js';

export interface CreditOptions {
  senderName?: string;
  senderAccount?: string;
  senderBankCode?: string;
  narration?: string;
  reference?: string;
}

interface Outcome {
  outcome: 'CREDITED' | 'SUSPENDED';
  transaction?: { id: string; amount: number; balance_after: number; provider_reference: string };
  suspense_item?: { id: string; amount: number; reason: string; provider_reference: string };
}

const outcomeView: View = {
  kind: 'custom',
  quiet: (o: Outcome) => o.transaction?.id ?? o.suspense_item?.id ?? '',
  lines: (o: Outcome, fmt) =>
    o.transaction
      ? [
          `${fmt.status('CREDITED')} ${fmt.money(o.transaction.amount)}`,
          `${fmt.dim('Transaction  ')} ${o.transaction.id}`,
          `${fmt.dim('Balance after')} ${fmt.money(o.transaction.balance_after)}`,
          `${fmt.dim('Reference    ')} ${o.transaction.provider_reference}`,
        ]
      : [
          `${fmt.status('SUSPENDED')} ${fmt.money(o.suspense_item!.amount)} held in suspense: ${o.suspense_item!.reason}`,
          `${fmt.dim('Suspense item')} ${o.suspense_item!.id}`,
          `${fmt.dim('Reference    ')} ${o.suspense_item!.provider_reference}`,
        ],
};

export function creditCommand(): Command {
  return clientCommand('credit')
    .description('Simulate a bank transfer into a virtual account (the provider notifying the sandbox)')
    .argument('<account>', 'virtual account number, or a wallet id')
    .argument('<amount>', 'kobo (500000 is ₦5,000.00)')
    .option('--sender-name <name>', 'who sent it', 'SANDBOX SENDER')
    .option('--sender-account <nuban>', "sender's 10-digit account number (needed to REFUND from suspense)")
    .option('--sender-bank-code <code>', "sender's bank code")
    .option('--narration <text>', 'transfer narration (default: "Transfer from <sender name>")')
    .option('--reference <provider_reference>', 'NIP session id; the same one again is a no-op replay (default: a fresh one)')
    .addHelpText(
      'after',
      examples(
        'ledger credit 0123456789 500000 --narration "rent for May"',
        'ledger credit "$WALLET" 250000 --sender-name "Bola Ade" --sender-account 0690000032 --sender-bank-code 044',
      ),
    )
    .action(action(runCredit));
}

export async function runCredit(io: Io, account: string, amount: string, options: CreditOptions): Promise<void> {
  const body = {
    account_number: await accountNumberOf(io, account),
    amount: parseAmount(amount),
    ...(options.senderName !== undefined ? { sender_name: options.senderName } : {}),
    ...(options.senderAccount !== undefined ? { sender_account: options.senderAccount } : {}),
    ...(options.senderBankCode !== undefined ? { sender_bank_code: options.senderBankCode } : {}),
    ...(options.narration !== undefined ? { narration: options.narration } : {}),
    ...(options.reference !== undefined ? { provider_reference: options.reference } : {}),
  };
  const outcome = await io.client().sandbox<Outcome>('POST', '/sandbox/inbound-transfers', { body });
  await io.show(outcome, outcomeView);
}
