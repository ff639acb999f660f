import { money } from './format.js';

/** What a refund's question needs of the held payment. */
export interface RefundedPayment {
  amount: number;
  sender_name: string;
  sender_account: string;
  sender_bank_code: string;
}

/** The words of a name, upper-case and sorted: "Ada  Obi" and "OBI ADA" are the same name, "SANDBOX / ADA OBI" is ADA OBI SANDBOX. */
const nameWords = (name: string) =>
  name
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ');

/** Whether two names have the same words, whatever their case and order. */
export function sameName(a: string, b: string): boolean {
  return nameWords(a) === nameWords(b);
}

export interface RefundCheck {
  /** The name the sender's bank gives the account. */
  bankName: string;
  /** Said in words when that name is not the payment's sender_name. */
  warning: string | undefined;
}

/** The bank's name for the account a REFUND would pay, and a warning when it is not the payment's sender. */
export function refundCheckOf(item: RefundedPayment, bankName: string): RefundCheck {
  const sender = item.sender_name.trim();
  const warning = !sender
    ? `the payment came with no sender name to compare with the bank's "${bankName}"`
    : sameName(sender, bankName)
      ? undefined
      : `the bank names account ${item.sender_account} "${bankName}", not "${sender}" as the payment's sender: the money would go to ${bankName}`;
  return { bankName, warning };
}

/**
 * The question asked before a resolution moves anything (the CLI's and the dashboard's): a REFUND
 * names the bank's name for the account, and the warning first when there is one.
 */
export function resolveQuestion(item: RefundedPayment, check?: RefundCheck): string {
  if (!check) return `Resolve this ${money(item.amount)} payment?`;
  const question = `Refund ${money(item.amount)} to ${check.bankName} (${item.sender_account} at ${item.sender_bank_code})?`;
  return check.warning ? `Names differ: ${check.warning}. ${question.replace(/\?$/, ' anyway?')}` : question;
}
