import { nipFee } from '../fees.js';
import type { ResolvedAccount } from '../banks/name-enquiry.js';
import type { Db, Trx } from '../db/database.js';
import { inSavepoint } from '../db/savepoint.js';
import { DEFAULT_SETTLEMENT_DELAY_SECONDS, type EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';
import { insufficientFunds } from '../ledger/accounts.repository.js';
import { runAgents } from '../agents/evaluate.js';
import { emitEvent, emitLedgerEvent } from '../events/events.service.js';
import { deliverToSandboxAccount } from '../inbound/deliver.js';
import { findSystemAccountIds } from '../ledger/accounts.repository.js';
import { post, type TransactionRow } from '../ledger/ledger.service.js';
import { findTransaction } from '../ledger/transactions.repository.js';
import { nipSessionId } from '../references.js';
import type { TransferResult } from '../transfers/result.js';
import type { WalletRow } from '../wallets/wallets.repository.js';
import { findPayoutOf } from './payouts.repository.js';
import type { PayoutRow } from './payouts.table.js';

/**
 * Sends money out through the simulated provider: the payout as a PENDING DEBIT to
 * provider_settlement and the NIP fee as its own SETTLED DEBIT to fee_income, both or neither.
 * The provider acts after the settlement delay; with a delay of 0 it acts before this returns.
 * @example await startPayout(trx, env, wallet, resolved, { amount: 500_000, narration: 'rent' })
 */
export async function startPayout(
  trx: Trx,
  env: EngineEnv,
  source: WalletRow,
  destination: ResolvedAccount,
  input: { amount: number; narration: string },
): Promise<TransferResult> {
  const fee = nipFee(input.amount);
  const reference = nipSessionId(env);
  const [settlement, feeIncome] = await findSystemAccountIds(trx, source.developer_id, [
    'PROVIDER_SETTLEMENT',
    'FEE_INCOME',
  ] as const);
  const common = {
    provider_reference: reference,
    sender_name: source.account_name,
    sender_account: source.account_number,
    destination_account_number: destination.account_number,
    destination_bank_code: destination.bank_code,
    destination_account_name: destination.account_name,
  };
  // Short of money for either debit: the message names the whole payout, amount and fee, against the balance before it.
  const short = (error: unknown) => {
    throw error instanceof LedgerError && error.code === 'INSUFFICIENT_FUNDS'
      ? insufficientFunds(source.balance, input.amount + fee, ` (${input.amount} and a fee of ${fee})`)
      : error;
  };
  const payout = await post(trx, env, {
    developerId: source.developer_id,
    kind: 'PAYOUT',
    legs: [
      {
        accountId: source.id,
        amount: -input.amount,
        transaction: { ...common, status: 'PENDING', raw_narration: input.narration, fee },
      },
      { accountId: settlement, amount: input.amount },
    ],
  }).catch(short);
  const charge = await post(trx, env, {
    developerId: source.developer_id,
    kind: 'PAYOUT_FEE',
    legs: [
      {
        accountId: source.id,
        amount: -fee,
        transaction: { ...common, status: 'SETTLED', raw_narration: 'Transfer fee' },
      },
      { accountId: feeIncome, amount: fee },
    ],
  }).catch(short);
  const debit = payout.transactions[0]!;
  const feeDebit = charge.transactions[0]!;
  await emitLedgerEvent(trx, env, debit);
  await emitLedgerEvent(trx, env, feeDebit);

  const now = env.clock.now();
  const delay = env.settlementDelaySeconds ?? DEFAULT_SETTLEMENT_DELAY_SECONDS;
  const row = await trx
    .insertInto('payouts')
    .values({
      transaction_id: debit.id,
      developer_id: source.developer_id,
      wallet_id: source.id,
      fee_transaction_id: feeDebit.id,
      amount: input.amount,
      fee,
      destination_account_number: destination.account_number,
      destination_bank_code: destination.bank_code,
      destination_account_name: destination.account_name,
      narration: input.narration,
      provider_reference: reference,
      plan: destination.plan,
      due_at: destination.plan === 'HOLD' ? null : new Date(now.getTime() + delay * 1000).toISOString(),
      status: 'PENDING',
      reversal_transaction_id: null,
      resolved_at: null,
      created_at: now.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  await runAgents(trx, env, [debit, feeDebit]);
  let status: TransferResult['status'] = 'PENDING';
  let balance = feeDebit.balance_after;
  if (delay === 0 && row.plan !== 'HOLD') {
    const reversal = await actOn(trx, env, row, row.plan);
    status = reversal ? 'FAILED' : 'SUCCESS';
    if (reversal) balance = reversal.balance_after;
  }
  return {
    status,
    transaction_id: debit.id,
    provider_reference: reference,
    new_balance: balance,
    currency: 'NGN',
    fee,
  };
}

/** Settles or fails a pending payout; returns the reversal when it failed. */
async function actOn(
  trx: Trx,
  env: EngineEnv,
  payout: PayoutRow,
  outcome: 'SETTLE' | 'FAIL',
): Promise<TransactionRow | undefined> {
  if (outcome === 'SETTLE') return settle(trx, env, payout);
  return fail(trx, env, payout, 'the beneficiary bank rejected the transfer');
}

/** Marks a pending payout resolved, once: false if something else resolved it first. */
async function claim(
  trx: Trx,
  env: EngineEnv,
  payout: PayoutRow,
  status: 'SETTLED' | 'FAILED',
): Promise<string | undefined> {
  const now = env.clock.now().toISOString();
  const updated = await trx
    .updateTable('payouts')
    .set({ status, resolved_at: now })
    .where('transaction_id', '=', payout.transaction_id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return undefined;
  await trx
    .updateTable('transactions')
    .set({ status, updated_at: Date.parse(now) })
    .where('id', '=', payout.transaction_id)
    .execute();
  return now;
}

/**
 * Settles a payout; one to a virtual account of this sandbox arrives there as an inbound transfer.
 * When that account refuses it (it cannot hold the amount), the beneficiary's bank has rejected the
 * transfer: the payout fails and is reversed instead, so a settlement can never be stuck.
 */
async function settle(trx: Trx, env: EngineEnv, payout: PayoutRow): Promise<TransactionRow | undefined> {
  try {
    await inSavepoint(trx, () => settleAndDeliver(trx, env, payout));
    return undefined;
  } catch (refused) {
    if (!(refused instanceof LedgerError)) throw refused;
    return fail(trx, env, payout, refused.message);
  }
}

async function settleAndDeliver(trx: Trx, env: EngineEnv, payout: PayoutRow): Promise<void> {
  if (!(await claim(trx, env, payout, 'SETTLED'))) return;
  await emitEvent(trx, env, payout.developer_id, 'transfer.completed', {
    transaction_id: payout.transaction_id,
    wallet_id: payout.wallet_id,
    status: 'SETTLED',
    amount: payout.amount,
    fee: payout.fee,
    currency: 'NGN',
    provider_reference: payout.provider_reference,
    destination_account_number: payout.destination_account_number,
    destination_bank_code: payout.destination_bank_code,
    destination_account_name: payout.destination_account_name,
  });
  const debit = (await findTransaction(trx, payout.developer_id, payout.transaction_id))!;
  await deliverToSandboxAccount(trx, env, payout.destination_bank_code, {
    account_number: payout.destination_account_number,
    amount: payout.amount,
    sender_name: debit.sender_name,
    sender_account: debit.sender_account,
    narration: payout.narration,
    provider_reference: payout.provider_reference,
  });
}

async function fail(trx: Trx, env: EngineEnv, payout: PayoutRow, reason: string): Promise<TransactionRow | undefined> {
  if (!(await claim(trx, env, payout, 'FAILED'))) return undefined;
  const [settlement, feeIncome] = await findSystemAccountIds(trx, payout.developer_id, [
    'PROVIDER_SETTLEMENT',
    'FEE_INCOME',
  ] as const);
  const { transactions } = await post(trx, env, {
    developerId: payout.developer_id,
    kind: 'PAYOUT_REVERSAL',
    legs: [
      { accountId: settlement, amount: -payout.amount },
      { accountId: feeIncome, amount: -payout.fee },
      {
        accountId: payout.wallet_id,
        amount: payout.amount + payout.fee,
        transaction: {
          status: 'SETTLED',
          provider_reference: payout.provider_reference,
          sender_name: 'NIP REVERSAL',
          sender_account: payout.destination_account_number,
          raw_narration: `Reversal: ${payout.narration}`.slice(0, 100),
          destination_account_number: payout.destination_account_number,
          destination_bank_code: payout.destination_bank_code,
          destination_account_name: payout.destination_account_name,
        },
      },
    ],
  });
  const reversal = transactions[0]!;
  await trx
    .updateTable('payouts')
    .set({ reversal_transaction_id: reversal.id })
    .where('transaction_id', '=', payout.transaction_id)
    .execute();
  await emitLedgerEvent(trx, env, reversal);
  await emitEvent(trx, env, payout.developer_id, 'transfer.failed', {
    transaction_id: payout.transaction_id,
    wallet_id: payout.wallet_id,
    status: 'FAILED',
    amount: payout.amount,
    fee: payout.fee,
    currency: 'NGN',
    provider_reference: payout.provider_reference,
    reversal_transaction_id: reversal.id,
    reversed_amount: payout.amount + payout.fee,
    reason,
  });
  await runAgents(trx, env, [reversal]);
  return reversal;
}

/**
 * Settles or fails, by hand, a payout that is still PENDING (decisions: Transfers and payouts).
 * Anything else, or another developer's transaction, is 404.
 * @example await resolvePayout(trx, env, developerId, transactionId, 'FAIL')
 */
export async function resolvePayout(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  transactionId: string,
  outcome: 'SETTLE' | 'FAIL',
): Promise<TransactionRow> {
  const payout = await trx
    .selectFrom('payouts')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  if (!payout || payout.status !== 'PENDING') {
    throw new LedgerError(
      'NOT_FOUND',
      payout ? `payout is already ${payout.status}` : await notAPayout(trx, developerId, transactionId),
    );
  }
  if (outcome === 'SETTLE') await settle(trx, env, payout);
  else await fail(trx, env, payout, 'failed by hand with POST /sandbox/payouts/:transaction_id/fail');
  return (await findTransaction(trx, developerId, transactionId))!;
}

/**
 * Why an id is not a payout to settle or fail: the fee or reversal of one names that payout's own id
 * (the DEBIT), which the fee beside it in a wallet's list is easily taken for.
 */
async function notAPayout(trx: Trx, developerId: string, transactionId: string): Promise<string> {
  const payout = await findPayoutOf(trx, developerId, transactionId);
  if (!payout) return 'pending payout not found';
  const part = payout.fee_transaction_id === transactionId ? 'fee' : 'reversal';
  return (
    `pending payout not found: ${transactionId} is the ${part} of payout ${payout.transaction_id} ` +
    `(${payout.status}), which is settled or failed by that id`
  );
}

/** Runs one write: the caller decides how (the sandbox shares commits between concurrent writes). */
export type WriteRunner = <T>(work: (trx: Trx) => Promise<T>) => Promise<T>;

/** When the developer's next pending payout falls due to settle or fail after `afterMs` (epoch ms, on its clock); undefined when none waits. */
export async function nextPayoutDueMs(db: Db, developerId: string, afterMs: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('payouts')
    .select('due_at')
    .where('developer_id', '=', developerId)
    .where('status', '=', 'PENDING')
    .where('due_at', '>', new Date(afterMs).toISOString())
    .orderBy('due_at')
    .limit(1)
    .executeTakeFirst();
  return row?.due_at ? Date.parse(row.due_at) : undefined;
}

/**
 * Lets the provider act on every payout of one developer whose time has come on that developer's
 * clock, oldest first, each in its own write. Returns how many it resolved. A failed write (a full
 * disk) stops the pass: the rest stay due for the next one.
 * @example await runDuePayouts(db, write, env, developerId)
 */
export async function runDuePayouts(db: Db, write: WriteRunner, env: EngineEnv, developerId: string): Promise<number> {
  const now = env.clock.now().toISOString();
  const due = await db
    .selectFrom('payouts')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('status', '=', 'PENDING')
    .where('due_at', 'is not', null)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .orderBy('created_at')
    .execute();
  for (const payout of due) {
    await write(async (trx) => {
      await actOn(trx, env, payout, payout.plan === 'FAIL' ? 'FAIL' : 'SETTLE');
    });
  }
  return due.length;
}
