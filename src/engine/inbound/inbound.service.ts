import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { LedgerError } from '../errors.js';
import { fingerprintText, sameRequestOrConflict } from '../idempotency/idempotency.service.js';
import { runAgents } from '../agents/evaluate.js';
import { emitEvent, emitLedgerEvent } from '../events/events.service.js';
import { findSystemAccountId, findSystemAccountIds } from '../ledger/accounts.repository.js';
import { post, type TransactionRow } from '../ledger/ledger.service.js';
import { findTransaction } from '../ledger/transactions.repository.js';
import { nipSessionId } from '../references.js';
import { findSuspenseItem, insertSuspenseItem, type SuspenseRow } from '../suspense/suspense.repository.js';
import type { SuspenseReason, SuspenseStatus } from '../suspense/suspense.table.js';
import { findWalletByAccountNumber, type WalletRow } from '../wallets/wallets.repository.js';
import { holdReason, type NarrationAnalyser, type ServiceIntelligence } from '../intelligence/analyser.js';
import { RulesAnalyser } from '../intelligence/rules-analyser.js';

const DEFAULT_ANALYSER = new RulesAnalyser();

export interface InboundInput {
  account_number: string;
  amount: number;
  sender_name?: string | undefined;
  sender_account?: string | undefined;
  sender_bank_code?: string | undefined;
  narration?: string | undefined;
  provider_reference?: string | undefined;
}

/** The notification as the provider would send it, with every default filled in: the suspense item's raw_payload. */
export interface InboundPayload {
  account_number: string;
  amount: number;
  sender_name: string;
  sender_account: string;
  sender_bank_code: string;
  narration: string;
  provider_reference: string;
}

export interface InboundOutcome {
  outcome: 'CREDITED' | 'SUSPENDED';
  transaction?: TransactionRow;
  suspense_item?: SuspenseRow;
  /** True when this provider_reference was seen before and nothing moved. */
  replayed: boolean;
}

export const DEFAULT_SENDER_NAME = 'SANDBOX SENDER';

export function normalizeInbound(env: EngineEnv, input: InboundInput): InboundPayload {
  return {
    account_number: input.account_number,
    amount: input.amount,
    sender_name: input.sender_name ?? DEFAULT_SENDER_NAME,
    sender_account: input.sender_account ?? '',
    sender_bank_code: input.sender_bank_code ?? '',
    narration: inboundNarration(input),
    provider_reference: input.provider_reference ?? nipSessionId(env),
  };
}

function inboundNarration(input: Pick<InboundInput, 'narration' | 'sender_name'>): string {
  return input.narration ?? `Transfer from ${input.sender_name ?? DEFAULT_SENDER_NAME}`;
}

/** The analyser a sandbox was started with, or the rules. */
export function analyserOf(env: EngineEnv): NarrationAnalyser {
  return env.analyser ?? DEFAULT_ANALYSER;
}

/**
 * Analyses an inbound payment before its database transaction opens, for an analyser that asks a
 * model over the network: the write then never waits on it. Undefined when the account is not one of
 * the developer's (the write answers 404). A wallet's system_prompt never changes, so the analysis
 * made here is the one the write would make.
 * @example const analysis = await analyseInbound(db, env, developerId, body); await receiveInbound(trx, env, developerId, body, analysis);
 */
export async function analyseInbound(
  db: Trx,
  env: EngineEnv,
  developerId: string,
  input: InboundInput,
): Promise<ServiceIntelligence | undefined> {
  const wallet = await findWalletByAccountNumber(db, input.account_number);
  if (!wallet || wallet.developer_id !== developerId) return undefined;
  return analyserOf(env).analyse({
    developerId,
    narration: inboundNarration(input),
    systemPrompt: wallet.system_prompt,
    amount: input.amount,
    senderName: input.sender_name ?? DEFAULT_SENDER_NAME,
  });
}

/**
 * Where an inbound payment goes, in order (decisions: Inbound payments): a closed wallet first,
 * then a risk flag (it outranks low confidence), then low confidence; null is a credit.
 */
export function routeInbound(
  walletStatus: string,
  intelligence: ServiceIntelligence,
): { reason: SuspenseReason; status: 'PENDING' | 'FLAGGED' } | null {
  if (walletStatus === 'CLOSED') return { reason: 'WALLET_CLOSED', status: 'PENDING' };
  const held = holdReason(intelligence);
  if (held === 'AI_RISK_FLAG') return { reason: held, status: 'FLAGGED' };
  if (held) return { reason: held, status: 'PENDING' };
  return null;
}

/**
 * A notification's fingerprint for the idempotency rule (engine/idempotency): its payload with every
 * default filled in, in the payload's own field order, the order the stored fingerprints were taken in.
 */
function contentHash(payload: InboundPayload): string {
  return fingerprintText(JSON.stringify(payload));
}

/**
 * The simulated provider's notification of money arriving at a virtual account (decisions: Inbound payments):
 * idempotent on provider_reference, by the rule of engine/idempotency with the reference as its key
 * (kept for good, not 24 h: a reference names one payment); an active wallet is credited, a closed
 * one's payment is held in suspense.
 * `analysis` is one made before the transaction opened (analyseInbound); without it the analyser is
 * asked offline, so the write never waits on a model.
 * @example await receiveInbound(trx, env, developerId, { account_number: '0123456789', amount: 500000 });
 */
export async function receiveInbound(
  trx: Trx,
  env: EngineEnv,
  developerId: string,
  input: InboundInput,
  analysis?: ServiceIntelligence,
  { fromSandbox = false }: { fromSandbox?: boolean } = {},
): Promise<InboundOutcome> {
  const payload = normalizeInbound(env, input);
  const hash = contentHash(payload);
  const seen = await trx
    .selectFrom('inbound_transfers')
    .selectAll()
    .where('developer_id', '=', developerId)
    .where('provider_reference', '=', payload.provider_reference)
    .executeTakeFirst();
  // Money the sandbox itself pays in (deliver.ts) arrives once, with the settlement that sends it,
  // under the NIP session id the sandbox issued: a notification the recipient sent by hand under
  // that id first is the recipient's own, and must not turn another developer's payout into a
  // failure (decisions: Inbound payments). It keeps its record; the payment arrives beside it.
  if (seen && !fromSandbox) {
    sameRequestOrConflict(
      seen.request_hash,
      hash,
      `provider_reference ${payload.provider_reference} was already used for a different payment`,
    );
    return replay(trx, developerId, JSON.parse(seen.outcome) as StoredOutcome);
  }

  const wallet = await findWalletByAccountNumber(trx, payload.account_number);
  if (!wallet || wallet.developer_id !== developerId) {
    throw new LedgerError(
      'NOT_FOUND',
      `account ${payload.account_number} not found: it is not one of your virtual accounts`,
    );
  }
  const intelligence =
    analysis ??
    (await analyserOf(env).analyse(
      {
        developerId,
        narration: payload.narration,
        systemPrompt: wallet.system_prompt,
        amount: payload.amount,
        senderName: payload.sender_name,
      },
      { offline: true },
    ));
  const held = routeInbound(wallet.status, intelligence);
  const outcome = held
    ? await suspend(trx, env, wallet, payload, held.reason, held.status, intelligence)
    : await credit(trx, env, wallet, payload, intelligence);
  if (seen) return outcome;
  const stored: StoredOutcome = {
    outcome: outcome.outcome,
    transaction_id: outcome.transaction?.id,
    suspense_item_id: outcome.suspense_item?.id,
  };
  await trx
    .insertInto('inbound_transfers')
    .values({
      developer_id: developerId,
      provider_reference: payload.provider_reference,
      request_hash: hash,
      outcome: JSON.stringify(stored),
      created_at: env.clock.now().toISOString(),
    })
    .execute();
  return outcome;
}

interface StoredOutcome {
  outcome: InboundOutcome['outcome'];
  transaction_id?: string | undefined;
  suspense_item_id?: string | undefined;
}

async function replay(trx: Trx, developerId: string, stored: StoredOutcome): Promise<InboundOutcome> {
  const outcome: InboundOutcome = { outcome: stored.outcome, replayed: true };
  if (stored.transaction_id) outcome.transaction = await findTransaction(trx, developerId, stored.transaction_id);
  if (stored.suspense_item_id)
    outcome.suspense_item = await findSuspenseItem(trx, developerId, stored.suspense_item_id);
  return outcome;
}

async function credit(
  trx: Trx,
  env: EngineEnv,
  wallet: WalletRow,
  payload: InboundPayload,
  intelligence: ServiceIntelligence,
): Promise<InboundOutcome> {
  const settlement = await findSystemAccountId(trx, wallet.developer_id, 'PROVIDER_SETTLEMENT');
  const { transactions } = await post(trx, env, {
    developerId: wallet.developer_id,
    kind: 'INBOUND_CREDIT',
    legs: [
      { accountId: settlement, amount: -payload.amount },
      {
        accountId: wallet.id,
        amount: payload.amount,
        transaction: {
          status: 'SETTLED',
          provider_reference: payload.provider_reference,
          sender_name: payload.sender_name,
          sender_account: payload.sender_account,
          raw_narration: payload.narration,
          service_intelligence: intelligence,
        },
      },
    ],
  });
  const transaction = transactions[0]!;
  await emitLedgerEvent(trx, env, transaction);
  await runAgents(trx, env, [transaction]);
  return { outcome: 'CREDITED', transaction, replayed: false };
}

/** Holds a payment on the developer's suspense_holding account until someone resolves it. */
export async function suspend(
  trx: Trx,
  env: EngineEnv,
  wallet: WalletRow,
  payload: InboundPayload,
  reason: SuspenseReason,
  status: SuspenseStatus,
  intelligence: unknown = null,
): Promise<InboundOutcome> {
  const [settlement, holding] = await findSystemAccountIds(trx, wallet.developer_id, [
    'PROVIDER_SETTLEMENT',
    'SUSPENSE_HOLDING',
  ] as const);
  const { postingSeq } = await post(trx, env, {
    developerId: wallet.developer_id,
    kind: 'INBOUND_SUSPENSE',
    legs: [
      { accountId: settlement, amount: -payload.amount },
      { accountId: holding, amount: payload.amount },
    ],
  });
  const item = await insertSuspenseItem(trx, {
    id: env.ids.uuid(),
    developer_id: wallet.developer_id,
    wallet_id: wallet.id,
    account_number: payload.account_number,
    amount: payload.amount,
    sender_name: payload.sender_name,
    sender_account: payload.sender_account,
    sender_bank_code: payload.sender_bank_code,
    raw_narration: payload.narration,
    provider_reference: payload.provider_reference,
    reason,
    status,
    raw_payload: JSON.stringify(payload),
    service_intelligence: intelligence == null ? null : JSON.stringify(intelligence),
    posting_seq: postingSeq,
    resolved_at: null,
    resolution_note: null,
    resolution_action: null,
    resolution_transaction_id: null,
    created_at: env.clock.now().toISOString(),
  });
  await emitEvent(trx, env, wallet.developer_id, 'suspense.created', {
    suspense_id: item.id,
    account_number: item.account_number,
    wallet_id: item.wallet_id,
    amount: item.amount,
    reason: item.reason,
    status: item.status,
    provider_reference: item.provider_reference,
    sender_name: item.sender_name,
    narration: item.raw_narration,
  });
  return { outcome: 'SUSPENDED', suspense_item: item, replayed: false };
}
