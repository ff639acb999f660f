/** The interface document's service_intelligence object, plus the reasons behind it. */
export interface ServiceIntelligence {
  raw_narration: string;
  extracted_intent: string;
  confidence_score: number;
  flags: string[];
  suggested_label: string;
  /** Why: each rule that fired, in order. An addition that helps support staff. */
  explanation: string[];
}

/** What an analysis reads. */
export interface NarrationInput {
  narration: string;
  /** The receiving wallet's system_prompt ('' when none). */
  systemPrompt: string;
  amount: number;
  senderName: string;
}

export interface AnalysisInput extends NarrationInput {
  /**
   * Whose payment it is. A model-backed analyser keeps its answers per developer, so one developer
   * can neither read another's narrations from what is cached (an answer, or how fast it comes) nor
   * choose the answers another's payments get.
   */
  developerId: string;
}

export interface AnalyseOptions {
  /**
   * Called inside a payment's database transaction: answer from what is known already, never from
   * the network, so no write waits on a model.
   */
  offline?: boolean;
}

/**
 * Turns an inbound payment's narration into service_intelligence. The default is offline and
 * deterministic; a model-backed analyser implements the same interface.
 */
export interface NarrationAnalyser {
  analyse(input: AnalysisInput, options?: AnalyseOptions): Promise<ServiceIntelligence>;
  /** Shown by `ledger sandbox analyse`: which analyser answered. */
  readonly name: string;
  /** Asks something over the network: analyse a payment before its transaction opens. */
  readonly remote?: boolean;
}

/** Flags that hold a payment in suspense as AI_RISK_FLAG (status FLAGGED). */
export const RISK_FLAGS = new Set(['SUSPECTED_FRAUD', 'REJECTED_BY_PROMPT', 'REVIEW_REQUESTED_BY_PROMPT']);

/** Below this confidence a payment is held as AI_LOW_CONFIDENCE (decisions: Inbound payments). */
export const LOW_CONFIDENCE = 0.5;

export function hasRiskFlag(intelligence: ServiceIntelligence): boolean {
  return intelligence.flags.some((flag) => RISK_FLAGS.has(flag));
}

/**
 * Why an analysis holds a payment, or null when it is credited. A risk flag outranks low
 * confidence, so fraud review comes before a missing purpose (decisions: Inbound payments).
 * @example holdReason({ ...analysis, confidence_score: 0.2, flags: ['SUSPECTED_FRAUD'] }) // 'AI_RISK_FLAG'
 */
export function holdReason(intelligence: ServiceIntelligence): 'AI_RISK_FLAG' | 'AI_LOW_CONFIDENCE' | null {
  if (hasRiskFlag(intelligence)) return 'AI_RISK_FLAG';
  if (intelligence.confidence_score < LOW_CONFIDENCE) return 'AI_LOW_CONFIDENCE';
  return null;
}
