import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOW_CONFIDENCE, RISK_FLAGS } from '../../src/engine/intelligence/analyser.js';
import { analyseNarration, hasRiskFlag, RulesAnalyser } from '../../src/engine/intelligence/rules-analyser.js';

interface Case {
  narration: string;
  system_prompt?: string;
  amount?: number;
  intent: string;
  label: string;
  held: boolean;
}

const corpus = JSON.parse(readFileSync(new URL('../fixtures/narrations.json', import.meta.url), 'utf8')) as Case[];
const run = (c: Case) => analyseNarration({ narration: c.narration, systemPrompt: c.system_prompt ?? '', amount: c.amount ?? 100_000, senderName: 'SANDBOX SENDER' });
const isHeld = (r: ReturnType<typeof run>) => r.confidence_score < LOW_CONFIDENCE || hasRiskFlag(r);

/** The corpus accuracy the README reports; exported for `npm run bench`. */
export function corpusAccuracy() {
  const misses = corpus.filter((c) => {
    const r = run(c);
    return r.extracted_intent !== c.intent || r.suggested_label !== c.label || isHeld(r) !== c.held;
  });
  return { total: corpus.length, correct: corpus.length - misses.length, misses };
}

describe('the rules analyser on the narration corpus', () => {
  it('has at least 60 realistic narrations', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
  });

  it('gets intent, label and hold right on at least 95% of them', () => {
    const { total, correct, misses } = corpusAccuracy();
    expect(correct / total, `misses: ${JSON.stringify(misses.map((m) => m.narration))}`).toBeGreaterThanOrEqual(0.95);
  });
});

describe('analysis', () => {
  it('reads the examples of the issue', () => {
    const read = (narration: string) => {
      const r = analyseNarration({ narration, systemPrompt: '', amount: 1000, senderName: 'X' });
      return [r.extracted_intent, r.suggested_label, r.confidence_score >= LOW_CONFIDENCE];
    };
    expect(read('NIP/GTB/ADA OBI/RENT JAN 2026')).toEqual(['rent', 'Rent', true]);
    expect(read('TRF FRM CHIDI EZE SCHOOL FEES JSS2')).toEqual(['school_fees', 'School fees', true]);
    expect(read('SALARY NOV 2026 ACME LTD')).toEqual(['salary', 'Salary', true]);
    expect(read('POS/WEB PURCHASE')).toEqual(['purchase', 'Purchase', true]);
    expect(read('loan repayment 3 of 6')).toEqual(['loan_repayment', 'Loan repayment', true]);
    expect(read('refund for order 5521')).toEqual(['refund', 'Refund', true]);
    expect(read('')).toEqual(['unknown', 'Uncategorised', false]);
  });

  it('returns the interface document’s fields with flags from the documented list', () => {
    const r = analyseNarration({ narration: 'SANDBOX-RISK school fees', systemPrompt: '', amount: 1, senderName: 'X' });
    expect(Object.keys(r)).toEqual(['raw_narration', 'extracted_intent', 'confidence_score', 'flags', 'suggested_label', 'explanation']);
    expect(r.flags).toEqual(['SUSPECTED_FRAUD']);
    expect([...RISK_FLAGS].sort()).toEqual(['REJECTED_BY_PROMPT', 'REVIEW_REQUESTED_BY_PROMPT', 'SUSPECTED_FRAUD']);
  });

  it('obeys the magic markers', () => {
    expect(analyseNarration({ narration: 'salary SANDBOX-LOW-CONFIDENCE', systemPrompt: '', amount: 1, senderName: 'X' }).confidence_score).toBe(0.2);
    expect(analyseNarration({ narration: 'rent sandbox-risk', systemPrompt: '', amount: 1, senderName: 'X' }).flags).toContain('SUSPECTED_FRAUD');
  });

  it('is steered by the system prompt: expected words raise confidence, review and reject add flags', () => {
    const plain = analyseNarration({ narration: 'NIP/TUNDE/rent', systemPrompt: '', amount: 1, senderName: 'X' });
    const expected = analyseNarration({ narration: 'NIP/TUNDE/rent', systemPrompt: 'Tenants pay their rent into this wallet.', amount: 1, senderName: 'X' });
    expect(expected.confidence_score).toBeGreaterThan(plain.confidence_score);
    expect(expected.explanation).toContain('system prompt expects rent: +0.15');
    const review = analyseNarration({ narration: 'loan repayment', systemPrompt: 'Please review loan repayments before crediting.', amount: 1, senderName: 'X' });
    expect(review.flags).toEqual(['REVIEW_REQUESTED_BY_PROMPT']);
    const reject = analyseNarration({ narration: 'betting payout', systemPrompt: 'Reject anything about betting.', amount: 1, senderName: 'X' });
    expect(reject.flags).toContain('REJECTED_BY_PROMPT');
  });

  it('is deterministic: the same narration and prompt give the same analysis, byte for byte', async () => {
    const input = { narration: 'TRF FRM CHIDI EZE SCHOOL FEES JSS2', systemPrompt: 'Expect school fees. Review anything above 500,000 naira.', amount: 60_000_000, senderName: 'CHIDI EZE' };
    const first = JSON.stringify(await new RulesAnalyser().analyse(input));
    for (let i = 0; i < 5; i++) expect(JSON.stringify(await new RulesAnalyser().analyse({ ...input }))).toBe(first);
  });
});
