import { ApiError } from '../../client/errors.js';

/**
 * Name enquiry answers ACCOUNT_NOT_FOUND whatever the cause; when the number cannot be right at that
 * bank (its NUBAN check digit fails), the message says so, since that is almost always a typo. A
 * bank code that is not listed points at the command that lists them, not at the API's path.
 */
export async function explainNotFound<T>(accountNumber: string, bankCode: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INVALID_BANK_CODE') {
      throw error.reworded(
        `bank code ${bankCode} is not in the list of banks: \`ledger banks list --search <name>\` shows the codes`,
        { fields: undefined },
      );
    }
    if (!(error instanceof ApiError) || error.code !== 'ACCOUNT_NOT_FOUND') throw error;
    // Loaded only now: a transfer that goes through never needs the rule.
    const { isValidNubanForCode, magicAccount } = await import('../../api/nuban.js');
    if (!magicAccount(accountNumber) && !isValidNubanForCode(accountNumber, bankCode)) {
      throw error.reworded(
        `${error.message}: ${accountNumber} fails this bank's NUBAN check digit, so it cannot be an account there (a mistyped digit?)`,
      );
    }
    throw error;
  }
}
