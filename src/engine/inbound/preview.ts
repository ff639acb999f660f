import type { Trx } from '../db/database.js';
import type { EngineEnv } from '../env.js';
import { invalidField, notFound } from '../errors.js';
import type { ServiceIntelligence } from '../intelligence/analyser.js';
import { describeInstruction, type Instruction } from '../intelligence/instructions/rules.js';
import type { SuspenseReason, SuspenseStatus } from '../suspense/suspense.table.js';
import { findWallet } from '../wallets/wallets.repository.js';
import { analyserOf, DEFAULT_SENDER_NAME, routeInbound } from './inbound.service.js';

export interface PreviewInput {
  narration: string;
  /** The prompt to read the narration against; or `wallet_id` for that wallet's own. */
  system_prompt?: string | undefined;
  wallet_id?: string | undefined;
  amount?: number | undefined;
  sender_name?: string | undefined;
}

export interface AnalysisPreview {
  service_intelligence: ServiceIntelligence;
  instruction: Instruction;
  outcome: 'CREDITED' | 'SUSPENDED';
  suspense_reason: SuspenseReason | null;
  suspense_status: Exclude<SuspenseStatus, 'RESOLVED'> | null;
  analyser: string;
}

/** The amount a preview assumes when none is given: ₦1,000.00. */
export const PREVIEW_AMOUNT = 100_000;

/**
 * What the sandbox's analyser makes of a narration, and where a payment with it would go, without
 * moving any money (`ledger sandbox analyse`). With `wallet_id` it reads that wallet's system_prompt
 * and status, as a real payment to it would be read.
 * @example await previewAnalysis(db, env, developerId, { narration: 'sch fees', system_prompt: 'School fees only.' })
 */
export async function previewAnalysis(
  db: Trx,
  env: EngineEnv,
  developerId: string,
  input: PreviewInput,
): Promise<AnalysisPreview> {
  const { wallet, systemPrompt } = await promptOf(db, developerId, input);
  const analyser = analyserOf(env);
  const intelligence = await analyser.analyse({
    developerId,
    narration: input.narration,
    systemPrompt,
    amount: input.amount ?? PREVIEW_AMOUNT,
    senderName: input.sender_name ?? DEFAULT_SENDER_NAME,
  });
  const held = routeInbound(wallet?.status ?? 'ACTIVE', intelligence);
  return {
    service_intelligence: intelligence,
    instruction: describeInstruction(systemPrompt),
    outcome: held ? 'SUSPENDED' : 'CREDITED',
    suspense_reason: held?.reason ?? null,
    suspense_status: held?.status ?? null,
    analyser: analyser.name,
  };
}

/** The prompt a preview reads: the one given, or the wallet's own (and the wallet). */
async function promptOf(db: Trx, developerId: string, input: Omit<PreviewInput, 'narration'>) {
  if (input.wallet_id !== undefined && input.system_prompt !== undefined)
    throw invalidField('system_prompt', 'give a system_prompt or a wallet_id, not both');
  const wallet = input.wallet_id === undefined ? undefined : await findWallet(db, developerId, input.wallet_id);
  if (input.wallet_id !== undefined && !wallet) throw notFound('wallet');
  return { wallet, systemPrompt: wallet?.system_prompt ?? input.system_prompt ?? '' };
}

/**
 * The rules a wallet instruction is read into, without a narration (`ledger sandbox analyse --prompt`):
 * the given system_prompt, or a wallet's own.
 * @example await previewInstruction(db, developerId, { system_prompt: 'Hold anything over 50k' })
 */
export async function previewInstruction(
  db: Trx,
  developerId: string,
  input: Omit<PreviewInput, 'narration'>,
): Promise<Instruction> {
  if (input.wallet_id === undefined && input.system_prompt === undefined)
    throw invalidField('system_prompt', 'give a system_prompt or a wallet_id');
  return describeInstruction((await promptOf(db, developerId, input)).systemPrompt);
}
