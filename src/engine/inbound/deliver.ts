import { bankName } from '../banks/banks.js';
import type { Trx } from '../db/database.js';
import { type EngineEnv, envOf, VIRTUAL_BANK } from '../env.js';
import { LedgerError } from '../errors.js';
import { resetPending } from '../reset/reset.service.js';
import { findWalletByAccountNumber } from '../wallets/wallets.repository.js';
import { type InboundInput, receiveInbound } from './inbound.service.js';

/**
 * Money the provider pays out to a virtual account of this sandbox (a settled payout, a refund)
 * arrives there as an inbound transfer, whichever developer owns it, the payer included. Anything
 * else leaves the sandbox, as does money for a developer whose reset is under way.
 * What the receiving wallet refuses (an amount it cannot hold) is thrown as its bank's refusal, 422
 * ACCOUNT_NOT_FOUND "cannot receive it", as NIP answers: the payer may be another developer, who must
 * learn nothing more of that wallet (how full it is, its pending payouts) than a bank would say.
 * @example await deliverToSandboxAccount(trx, env, '035', { account_number, amount, ... })
 */
export async function deliverToSandboxAccount(
  trx: Trx,
  env: EngineEnv,
  bankCode: string,
  input: InboundInput,
): Promise<void> {
  if (bankCode !== VIRTUAL_BANK.code) return;
  const recipient = await findWalletByAccountNumber(trx, input.account_number);
  // A wallet whose developer is being reset is as good as gone: the reset removes it.
  if (!recipient || (await resetPending(trx, recipient.developer_id))) return;
  // What arrives is stamped on the receiving developer's clock (decisions: Tenancy, clocks and reset).
  try {
    await receiveInbound(
      trx,
      envOf(env, recipient.developer_id),
      recipient.developer_id,
      { ...input, sender_bank_code: input.sender_bank_code ?? VIRTUAL_BANK.code },
      undefined,
      { fromSandbox: true },
    );
  } catch (refused) {
    if (!(refused instanceof LedgerError)) throw refused;
    throw new LedgerError(
      'ACCOUNT_NOT_FOUND',
      `the beneficiary bank rejected the credit: account ${input.account_number} at ${bankName(bankCode)} cannot receive it`,
    );
  }
}
