import type { Trx } from '../db/database.js';
import { findDeveloper } from '../developers/developers.service.js';
import { type EngineEnv, VIRTUAL_BANK } from '../env.js';
import { LedgerError, notFound } from '../errors.js';
import { emitEvent } from '../events/events.service.js';
import { insertAccount } from '../ledger/accounts.repository.js';
import { isUniqueViolation } from '../db/storage-errors.js';
import { makeNuban } from './nuban.js';
import { type WalletRow, accountNumberTaken, customerReferenceTaken, findWallet } from './wallets.repository.js';

export interface CreateWalletInput {
  customer_reference: string;
  first_name: string;
  last_name: string;
  email: string;
  label?: string | undefined;
  currency?: string | undefined;
  system_prompt?: string | undefined;
  allow_transfers_out?: boolean | undefined;
  sub_account_id?: string | undefined;
}

/** `"<BUSINESS NAME> / <FIRST> <LAST>"` in capitals (decisions: Resources and their defaults). */
export function accountName(businessName: string, firstName: string, lastName: string): string {
  return `${businessName} / ${firstName} ${lastName}`.toUpperCase();
}

async function freshAccountNumber(trx: Trx, env: EngineEnv): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    // Serials never start with 0 so the number reads like a real virtual account.
    const serial = `${1 + (Number(env.ids.digits(1)) % 9)}${env.ids.digits(8)}`;
    const candidate = makeNuban(VIRTUAL_BANK.code, serial);
    if (!(await accountNumberTaken(trx, candidate))) return candidate;
  }
  throw new Error('could not find a free account number');
}

/**
 * Provisions a virtual NUBAN and an ACTIVE wallet with balance 0.
 * @example await createWallet(trx, env, developerId, { customer_reference: 'u1', first_name: 'Ada', last_name: 'Obi', email: 'ada@example.com' });
 */
export async function createWallet(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  input: CreateWalletInput,
): Promise<WalletRow> {
  if (input.currency !== undefined && input.currency !== 'NGN') {
    throw new LedgerError('UNSUPPORTED_CURRENCY', `currency ${input.currency} is not supported: only NGN`, [
      { field: 'currency', message: 'only NGN is supported' },
    ]);
  }
  if (await customerReferenceTaken(trx, developerId, input.customer_reference)) {
    throw new LedgerError(
      'DUPLICATE_CUSTOMER_REFERENCE',
      `customer_reference ${input.customer_reference} is already used by another wallet`,
    );
  }
  const developer = await findDeveloper(trx, developerId);
  if (!developer) throw notFound('developer');
  const id = env.ids.uuid();
  const now = env.clock.now().toISOString();
  await insertAccount(trx, { id, developer_id: developerId, kind: 'WALLET', created_at: now });
  try {
    await trx
      .insertInto('wallets')
      .values({
        id,
        developer_id: developerId,
        customer_reference: input.customer_reference,
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        label: input.label ?? `${input.first_name} ${input.last_name}`,
        account_number: await freshAccountNumber(trx, env),
        bank_code: VIRTUAL_BANK.code,
        bank_name: VIRTUAL_BANK.name,
        account_name: accountName(developer.business_name, input.first_name, input.last_name),
        currency: 'NGN',
        status: 'ACTIVE',
        system_prompt: input.system_prompt ?? '',
        allow_transfers_out: input.allow_transfers_out === false ? 0 : 1,
        sub_account_id: input.sub_account_id ?? null,
        created_at: now,
        closed_at: null,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new LedgerError(
        'DUPLICATE_CUSTOMER_REFERENCE',
        `customer_reference ${input.customer_reference} is already used by another wallet`,
      );
    }
    throw error;
  }
  return (await findWallet(trx, developerId, id))!;
}

/** The caller's wallet, or 404 whether it is missing or another developer's. */
export async function getWallet(trx: Trx, developerId: string, id: string): Promise<WalletRow> {
  const wallet = await findWallet(trx, developerId, id);
  if (!wallet) throw notFound('wallet');
  return wallet;
}

/**
 * Closes a wallet with whatever balance it holds and emits `wallet.closed`.
 * @example const closed = await closeWallet(trx, env, developerId, walletId);
 */
export async function closeWallet(trx: Trx, env: EngineEnv, developerId: string, id: string): Promise<WalletRow> {
  const wallet = await getWallet(trx, developerId, id);
  if (wallet.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'wallet is already closed');
  const now = env.clock.now().toISOString();
  await trx.updateTable('wallets').set({ status: 'CLOSED', closed_at: now }).where('id', '=', id).execute();
  await emitEvent(trx, env, developerId, 'wallet.closed', {
    wallet_id: id,
    account_number: wallet.account_number,
    balance: wallet.balance,
    currency: wallet.currency,
    closed_at: now,
  });
  return { ...wallet, status: 'CLOSED', closed_at: now };
}

/** Sets `allow_transfers_out` (the sandbox's unlock, and LOCK_WALLET's lock). */
export async function setTransfersOut(trx: Trx, developerId: string, id: string, allow: boolean): Promise<WalletRow> {
  const wallet = await getWallet(trx, developerId, id);
  if (wallet.status === 'CLOSED') throw new LedgerError('WALLET_CLOSED', 'wallet is closed');
  await trx
    .updateTable('wallets')
    .set({ allow_transfers_out: allow ? 1 : 0 })
    .where('id', '=', id)
    .execute();
  return { ...wallet, allow_transfers_out: allow ? 1 : 0 };
}
