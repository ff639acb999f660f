import { runAgents } from '../agents/evaluate.js';
import { nameEnquiry } from '../banks/name-enquiry.js';
import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { filteredWallet, type ListFilters, paymentColumns, whereFilters } from '../filters.js';
import { LedgerError, notFound } from '../errors.js';
import { emitEvent, emitLedgerEvent } from '../events/events.service.js';
import { deliverToSandboxAccount } from '../inbound/deliver.js';
import { findSystemAccountId } from '../ledger/accounts.repository.js';
import { post } from '../ledger/ledger.service.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import { nipSessionId } from '../references.js';
import { getWallet } from '../wallets/wallets.service.js';
import { findSuspenseItem, type SuspenseRow } from './suspense.repository.js';
import type { SuspenseAction, SuspenseReason, SuspenseStatus } from './suspense.table.js';

export interface ResolveInput {
  action: SuspenseAction;
  target_wallet_id?: string | undefined;
  note?: string | undefined;
}

export interface Resolution {
  message: string;
  action: SuspenseAction;
  transaction_id?: string;
  provider_reference?: string;
}

/** A developer's held payments, oldest first unless `order` is desc (the open queue: status PENDING and FLAGGED). */
export async function listSuspense(
  trx: Trx,
  developerId: string,
  query: PageQuery & ListFilters & { reason?: SuspenseReason | undefined },
): Promise<Page<SuspenseRow>> {
  const wallet = await filteredWallet(trx, developerId, query);
  if (wallet === null) return { items: [], total: 0, page: query.page, limit: query.limit };
  let base = whereFilters(
    trx.selectFrom('suspense_items').where('developer_id', '=', developerId),
    SUSPENSE_COLUMNS,
    query,
  );
  if (wallet) base = base.where('wallet_id', '=', wallet.id);
  if (query.reason) base = base.where('reason', '=', query.reason);
  return paginate<SuspenseRow>(base, query);
}

/** A suspense item's time is stored as its ISO text, which sorts as the instant does. */
const SUSPENSE_COLUMNS = paymentColumns('suspense_items', (time) => time.toISOString());

export async function getSuspenseItem(trx: Trx, developerId: string, id: string): Promise<SuspenseRow> {
  const item = await findSuspenseItem(trx, developerId, id);
  if (!item) throw notFound('suspense item');
  return item;
}

/**
 * Resolves a held payment (decisions: Suspense): CREDIT_WALLET credits an active wallet of the developer,
 * DISMISS moves the money to `dismissed`, REFUND pays it back to the sender through the provider
 * without fee. The item becomes RESOLVED and `suspense.resolved` fires, in the caller's transaction.
 * @example await resolveSuspense(trx, env, developerId, itemId, { action: 'CREDIT_WALLET', target_wallet_id })
 */
export async function resolveSuspense(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  id: string,
  input: ResolveInput,
): Promise<Resolution> {
  const item = await getSuspenseItem(trx, developerId, id);
  if (item.status === 'RESOLVED')
    throw new LedgerError(
      'SUSPENSE_ALREADY_RESOLVED',
      `suspense item was already resolved (${item.resolution_action ?? 'RESOLVED'}) at ${item.resolved_at}`,
    );
  const holding = await findSystemAccountId(trx, developerId, 'SUSPENSE_HOLDING');
  let resolution: Resolution;
  if (input.action === 'CREDIT_WALLET') {
    const wallet = await getWallet(trx, developerId, input.target_wallet_id!);
    if (wallet.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'the target wallet is closed');
    const { transactions } = await post(trx, env, {
      developerId,
      kind: 'SUSPENSE_CREDIT',
      legs: [
        { accountId: holding, amount: -item.amount },
        {
          accountId: wallet.id,
          amount: item.amount,
          transaction: {
            status: 'SETTLED',
            provider_reference: item.provider_reference,
            sender_name: item.sender_name,
            sender_account: item.sender_account,
            raw_narration: item.raw_narration,
            service_intelligence: item.service_intelligence ? JSON.parse(item.service_intelligence) : null,
          },
        },
      ],
    });
    const credit = transactions[0]!;
    await emitLedgerEvent(trx, env, credit);
    await runAgents(trx, env, [credit]);
    // The customer by name and reference as well as the wallet id: whom the money went to is what a person checks.
    resolution = {
      message: `credited ${item.amount} kobo to wallet ${wallet.id} (${wallet.first_name} ${wallet.last_name}, ${wallet.customer_reference})`,
      action: 'CREDIT_WALLET',
      transaction_id: credit.id,
    };
  } else if (input.action === 'DISMISS') {
    await post(trx, env, {
      developerId,
      kind: 'SUSPENSE_DISMISS',
      legs: [
        { accountId: holding, amount: -item.amount },
        { accountId: await findSystemAccountId(trx, developerId, 'DISMISSED'), amount: item.amount },
      ],
    });
    resolution = { message: `dismissed: ${item.amount} kobo moved to the dismissed account`, action: 'DISMISS' };
  } else {
    resolution = await refund(trx, env, item, holding);
  }

  const now = env.clock.now().toISOString();
  await trx
    .updateTable('suspense_items')
    .set({
      status: 'RESOLVED',
      resolved_at: now,
      resolution_note: input.note ?? null,
      resolution_action: input.action,
      resolution_transaction_id: resolution.transaction_id ?? null,
    })
    .where('id', '=', item.id)
    .execute();
  await emitEvent(trx, env, developerId, 'suspense.resolved', {
    suspense_id: item.id,
    action: input.action,
    amount: item.amount,
    reason: item.reason,
    resolved_at: now,
    note: input.note ?? null,
    ...(input.target_wallet_id ? { target_wallet_id: input.target_wallet_id } : {}),
    ...(resolution.transaction_id ? { transaction_id: resolution.transaction_id } : {}),
    ...(resolution.provider_reference ? { provider_reference: resolution.provider_reference } : {}),
  });
  return resolution;
}

async function refund(trx: Trx, env: EngineEnv, item: SuspenseRow, holding: string): Promise<Resolution> {
  if (!item.sender_account || !item.sender_bank_code) {
    throw new LedgerError('ACCOUNT_NOT_FOUND', 'the payment has no sender account and bank to refund to');
  }
  const sender = await nameEnquiry(trx, item.sender_bank_code, item.sender_account).catch((error: unknown) => {
    if (error instanceof LedgerError && error.code === 'INVALID_BANK_CODE') {
      throw new LedgerError('ACCOUNT_NOT_FOUND', `the sender's bank ${item.sender_bank_code} is not a listed bank`);
    }
    throw error;
  });
  const reference = nipSessionId(env);
  await post(trx, env, {
    developerId: item.developer_id,
    kind: 'SUSPENSE_REFUND',
    legs: [
      { accountId: holding, amount: -item.amount },
      { accountId: await findSystemAccountId(trx, item.developer_id, 'PROVIDER_SETTLEMENT'), amount: item.amount },
    ],
  });
  await deliverToSandboxAccount(trx, env, item.sender_bank_code, {
    account_number: item.sender_account,
    amount: item.amount,
    sender_name: 'NIP REFUND',
    sender_account: item.account_number,
    narration: `Refund: ${item.raw_narration}`.slice(0, 100),
    provider_reference: reference,
  });
  return {
    message: `refunded ${item.amount} kobo to ${sender.account_name} (${item.sender_account} at ${item.sender_bank_code})`,
    action: 'REFUND',
    provider_reference: reference,
  };
}
