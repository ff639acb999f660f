import type { Trx } from '../db/database.js';
import { type EngineEnv, envOf, VIRTUAL_BANK } from '../env.js';
import { findWalletByAccountNumber } from '../wallets/wallets.repository.js';
import { type InboundInput, receiveInbound } from './inbound.service.js';

/**
 * Money the provider sends out to a virtual account of another developer in this sandbox arrives
 * there as an inbound transfer (settled payouts, refunds). Anything else leaves the sandbox.
 * @example await deliverToSandboxAccount(trx, env, developerId, '035', { account_number, amount, ... })
 */
export async function deliverToSandboxAccount(trx: Trx, env: EngineEnv, fromDeveloperId: string, bankCode: string, input: InboundInput): Promise<void> {
  if (bankCode !== VIRTUAL_BANK.code) return;
  const recipient = await findWalletByAccountNumber(trx, input.account_number);
  if (!recipient || recipient.developer_id === fromDeveloperId) return;
  // What arrives is stamped on the receiving developer's clock (contract §8).
  await receiveInbound(trx, envOf(env, recipient.developer_id), recipient.developer_id, { ...input, sender_bank_code: input.sender_bank_code ?? VIRTUAL_BANK.code });
}
