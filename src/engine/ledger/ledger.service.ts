import type { Selectable } from 'kysely';
import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { applyDelta, refusalOf } from './accounts.repository.js';
import { countTransactions, insertEntries, insertPosting, insertTransactions } from './postings.repository.js';
import type { TransactionStatus, TransactionTable } from './ledger.table.js';

/** A transaction as the API knows it: its stored row, with its wallet's id and developer (read through `account_seq`) and its times as ISO text. */
export type TransactionRow = Omit<Selectable<TransactionTable>, 'created_at' | 'updated_at'> & {
  wallet_id: string;
  developer_id: string;
  created_at: string;
  updated_at: string | null;
};

/** What a wallet leg records on its transaction, besides the amounts the ledger computes. */
export interface WalletTransactionInput {
  status: TransactionStatus;
  provider_reference: string;
  sender_name: string;
  sender_account: string;
  raw_narration: string;
  service_intelligence?: unknown;
  destination_account_number?: string | null;
  destination_bank_code?: string | null;
  destination_account_name?: string | null;
  fee?: number | null;
  agent_id?: string | null;
}

export interface Leg {
  accountId: string;
  /** Signed kobo: positive raises the account's balance, negative lowers it. */
  amount: number;
  /** Present on wallet legs: the wallet gets a CREDIT or DEBIT transaction. */
  transaction?: WalletTransactionInput;
}

export interface PostingInput {
  developerId: string;
  kind: string;
  legs: Leg[];
}

export interface PostingResult {
  postingSeq: number;
  /** The wallet transactions, in leg order. */
  transactions: TransactionRow[];
}

/**
 * Posts one balanced movement: every leg changes its account with a conditional UPDATE,
 * debits first, and wallet legs get their transaction rows. The caller owns the database
 * transaction, so a failure anywhere leaves nothing behind.
 * @example await post(trx, env, { developerId, kind: 'INTERNAL_TRANSFER', legs: [
 *   { accountId: from, amount: -500, transaction: {...} }, { accountId: to, amount: 500, transaction: {...} } ] })
 */
export async function post(trx: Trx, env: EngineEnv, input: PostingInput): Promise<PostingResult> {
  const sum = input.legs.reduce((total, leg) => total + leg.amount, 0);
  if (sum !== 0 || input.legs.some((leg) => !Number.isSafeInteger(leg.amount) || leg.amount === 0)) {
    throw new Error(`unbalanced posting ${input.kind}: legs sum to ${sum}`);
  }
  const at = env.clock.now();
  const now = at.toISOString();
  const [postingSeq] = (await insertPosting(trx, [
    { developer_id: input.developerId, kind: input.kind, created_at: at.getTime() },
  ])) as [number];

  // Debits first: when money is short, nothing has been credited yet.
  const order = input.legs.map((leg, index) => ({ leg, index })).sort((a, b) => a.leg.amount - b.leg.amount);
  const balances = new Map<number, { balance: number; seq: number }>();
  for (const { leg, index } of order) {
    const after = await applyDelta(trx, leg.accountId, leg.amount);
    if (after === undefined) throw await refusalOf(trx, leg.accountId, leg.amount);
    balances.set(index, after);
  }
  // Then the legs' entries, and the wallet legs' transactions, each kind in one statement, in the same order.
  const entries = order.map(({ index, leg }) => ({
    posting_seq: postingSeq,
    account_seq: balances.get(index)!.seq,
    amount: leg.amount,
  }));
  const entrySeqs = await insertEntries(trx, entries);
  const walletLegs = order.flatMap(({ leg, index }, i) =>
    leg.transaction ? [{ leg, index, transaction: leg.transaction, entrySeq: entrySeqs[i]! }] : [],
  );
  const results = new Array<TransactionRow | undefined>(input.legs.length);
  if (walletLegs.length > 0) {
    const values = walletLegs.map(({ leg, index, transaction: t, entrySeq }) => {
      const { balance: after, seq: accountSeq } = balances.get(index)!;
      return {
        id: env.ids.uuid(),
        account_seq: accountSeq,
        posting_seq: postingSeq,
        entry_seq: entrySeq,
        type: leg.amount > 0 ? ('CREDIT' as const) : ('DEBIT' as const),
        amount: Math.abs(leg.amount),
        balance_before: after - leg.amount,
        balance_after: after,
        currency: 'NGN',
        status: t.status,
        provider_reference: t.provider_reference,
        sender_name: t.sender_name,
        sender_account: t.sender_account,
        raw_narration: t.raw_narration,
        service_intelligence: t.service_intelligence == null ? null : JSON.stringify(t.service_intelligence),
        destination_account_number: t.destination_account_number ?? null,
        destination_bank_code: t.destination_bank_code ?? null,
        destination_account_name: t.destination_account_name ?? null,
        fee: t.fee ?? null,
        agent_id: t.agent_id ?? null,
        created_at: at.getTime(),
        updated_at: null,
      };
    });
    // The rows as stored, built here from their values and seqs.
    const seqs = await insertTransactions(trx, values);
    values.forEach(
      (row, i) =>
        (results[walletLegs[i]!.index] = {
          ...row,
          seq: seqs[i]!,
          wallet_id: walletLegs[i]!.leg.accountId,
          developer_id: input.developerId,
          created_at: now,
        }),
    );
    await countTransactions(
      trx,
      walletLegs.map(({ leg }, i) => ({ wallet_id: leg.accountId, type: values[i]!.type })),
    );
  }
  return { postingSeq, transactions: results.filter((r): r is TransactionRow => r !== undefined) };
}
