import type { ResolvedAccount } from '../../api/schemas/banks.js';
import type { SuspenseItem } from '../../api/schemas/suspense.js';
import { ApiError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';
import { type RefundCheck, refundCheckOf } from '../../text/refund.js';

export type { RefundCheck };

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
    throw error.reworded(
      `name enquiry on the sender's account ${item.sender_account} at bank ${item.sender_bank_code} failed ` +
        `(${error.message}), so a REFUND cannot go there: nothing moved; CREDIT_WALLET or DISMISS it`,
      { fields: undefined, code: 'ACCOUNT_NOT_FOUND' },
    );
  }
  return refundCheckOf(item, resolved.account_name);
}
