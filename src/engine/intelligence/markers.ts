/** The magic markers (decisions: Narration analysis) for scripting, honoured by every analyser. */
export const LOW_MARKER = 'SANDBOX-LOW-CONFIDENCE';
export const RISK_MARKER = 'SANDBOX-RISK';

/** The narration in upper case without its markers: they steer the outcome, they are not what it says. */
export function withoutMarkers(narration: string): string {
  return narration.toUpperCase().replaceAll(LOW_MARKER, ' ').replaceAll(RISK_MARKER, ' ');
}

export interface Draft {
  confidence: number;
  flags: Set<string>;
  explanation: string[];
}

/**
 * Applies the markers last, so they win over anything the narration says:
 * `SANDBOX-RISK` adds SUSPECTED_FRAUD, `SANDBOX-LOW-CONFIDENCE` sets the confidence to 0.2.
 */
export function applyMarkers(narration: string, draft: Draft): void {
  const upper = narration.toUpperCase();
  if (upper.includes(RISK_MARKER)) {
    draft.flags.add('SUSPECTED_FRAUD');
    draft.explanation.push(`${RISK_MARKER} marker: SUSPECTED_FRAUD`);
  }
  if (upper.includes(LOW_MARKER)) {
    draft.confidence = 0.2;
    draft.explanation.push(`${LOW_MARKER} marker: confidence 0.2`);
  }
}
