import type { Command } from '../cli/command.js';
import { check, inFlagTerms, kobo } from '../client/validate.js';
import type { Io } from '../cli/io.js';
import { accountNumberOf } from '../cli/account-number.js';
import { action, sandboxCommand, examples } from '../cli/options.js';
import type { View } from '../cli/output/views.js';

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

const FLAGS = {
  account_number: '<account>',
  amount: '<amount>',
  sender_name: '--sender-name',
  sender_account: '--sender-account',
  sender_bank_code: '--sender-bank-code',
  narration: '--narration',
  provider_reference: '--reference',
};

/**
 * A credit whose answer was cut off may have been made. The provider reference is what makes a
 * repeat safe: the same one again is a replay (decisions: Inbound payments).
 */
function beforeRepeating(reference: string | undefined): string {
  return reference === undefined
    ? 'look before you repeat it (`ledger transactions list <wallet>` shows the money that moved); ' +
        'a credit repeated with the same --reference is never made twice'
    : 'repeat it with the same --reference: the sandbox then answers it as a replay without crediting twice';
}

export function creditCommand(): Command {
  return sandboxCommand('credit')
    .argument('<account>', 'virtual account number, or a wallet id')
    .argument('<amount>', 'kobo (500000 is ₦5,000.00)')
    .option('--sender-name <name>', 'who sent it (default: SANDBOX SENDER)')
    .option('--sender-account <nuban>', "sender's 10-digit account number (needed to REFUND from suspense)")
    .option('--sender-bank-code <code>', "sender's bank code (needed to REFUND from suspense)")
    .option('--narration <text>', 'transfer narration, at most 100 characters (default: "Transfer from <sender name>")')
    .option(
      '--reference <provider_reference>',
      'NIP session id; the same one again is a no-op replay (default: a fresh one)',
    )
    .addHelpText(
      'after',
      examples(
        'ledger credit "$WALLET" 500000 --narration "rent for May"',
        'ledger credit "$WALLET" 250000 --sender-name "Bola Ade" --sender-account 0123456785 --sender-bank-code 058',
      ),
    )
    .action(action(runCredit));
}

export async function runCredit(io: Io, account: string, amount: string, options: CreditOptions): Promise<void> {
  const given = {
    amount: kobo(amount, '<amount>', 'InboundBody', 'amount'),
    sender_name: options.senderName,
    sender_account: options.senderAccount,
    sender_bank_code: options.senderBankCode,
    narration: options.narration,
    provider_reference: options.reference,
  };
  check('InboundBody', given, FLAGS, { partial: true });
  const body = check(
    'InboundBody',
    { account_number: await accountNumberOf(io, account, '<account>'), ...given },
    FLAGS,
  );
  const outcome = await io
    .client()
    .sandbox<Outcome>('POST', '/sandbox/inbound-transfers', {
      body,
      beforeRepeating: beforeRepeating(options.reference),
    })
    .catch((error: unknown) => {
      throw inFlagTerms(error, FLAGS);
    });
  await io.show(outcome, outcomeView);
  // Held, not credited: the money waits in the suspense queue for a person.
  if (outcome.suspense_item) {
    io.note(
      `\`ledger suspense show ${outcome.suspense_item.id}\` shows why it was held; ` +
        `\`ledger suspense resolve ${outcome.suspense_item.id}\` credits, refunds or dismisses it.`,
    );
  }
}
