import type { ResolvedAccount } from '../../api/schemas/banks.js';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import { ApiError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';
import { money } from '../../text/format.js';

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

/**
 * Name enquiry on the account a REFUND would pay, before anyone is asked: whom the money goes to
 * is the bank's answer, not the name the payment arrived with, and a person must see both when
 * they differ. A failed enquiry is the refund's own failure, said before anything moves.
 */
export async function checkRefund(io: Io, item: SuspenseItem): Promise<RefundCheck> {
  let resolved: ResolvedAccount;
  try {
    resolved = await io.client().request<ResolvedAccount>('POST', '/v1/banks/resolve', {
      body: { account_number: item.sender_account, bank_code: item.sender_bank_code },
    });
  } catch (error) {
    if (!(error instanceof ApiError) || (error.code !== 'ACCOUNT_NOT_FOUND' && error.code !== 'INVALID_BANK_CODE'))
      throw error;
    throw new ApiError(
      error.status,
      'ACCOUNT_NOT_FOUND',
      `name enquiry on the sender's account ${item.sender_account} at bank ${item.sender_bank_code} failed ` +
        `(${error.message}), so a REFUND cannot go there: nothing moved; CREDIT_WALLET or DISMISS it`,
    );
  }
  const bankName = resolved.account_name;
  const sender = item.sender_name.trim();
  const warning = !sender
    ? `the payment came with no sender name to compare with the bank's "${bankName}"`
    : sameName(sender, bankName)
      ? undefined
      : `the bank names account ${item.sender_account} "${bankName}", not "${sender}" as the payment's sender: the money would go to ${bankName}`;
  return { bankName, warning };
}

/** The confirmation question of a REFUND: the bank's name for the account, and the warning first when there is one. */
export function refundQuestion(item: SuspenseItem, check: RefundCheck): string {
  const question = `Refund ${money(item.amount)} to ${check.bankName} (${item.sender_account} at ${item.sender_bank_code})?`;
  return check.warning ? `Names differ: ${check.warning}. ${question.replace(/\?$/, ' anyway?')}` : question;
}
