import { type AnalysisInput, type NarrationAnalyser, RISK_FLAGS, type ServiceIntelligence } from './analyser.js';
import { FRAUD_TERMS, INTENTS, MONTHS, NOISE_TERMS, TRANSFER_TERMS } from './lexicon.js';

const LOW_MARKER = 'SANDBOX-LOW-CONFIDENCE';
const RISK_MARKER = 'SANDBOX-RISK';
const INSTALMENT = /\b\d+ OF \d+\b/;
const REJECT = /\b(reject|refuse|block|decline|do not accept|don't accept|never accept|not allowed|disallow)\b/;
const REVIEW = /\b(review|flag|check|verify|hold|manual|suspicious|investigate|confirm)\b/;
const LIMIT = /\b(?:above|over|more than|greater than|exceeding|exceeds)\s*(?:₦|ngn|n)?\s*([\d,]+(?:\.\d+)?)\s*(k|m|thousand|million)?\s*(naira|kobo)?/;
const STOPWORDS = new Set(['THIS', 'THAT', 'WALLET', 'ACCOUNT', 'PAYMENT', 'PAYMENTS', 'EXPECT', 'EXPECTS', 'RECEIVE', 'RECEIVES', 'ONLY', 'FROM', 'WITH', 'WILL', 'SHOULD', 'THEY', 'THEM', 'THEIR', 'THESE', 'MONEY', 'FUNDS', 'TRANSFER', 'TRANSFERS', 'MOSTLY', 'USUALLY', 'ALWAYS', 'CREDIT', 'CREDITS', 'INBOUND', 'INCOMING', 'USER', 'CUSTOMER', 'ABOUT', 'ANYTHING', 'ELSE', 'OTHER', 'THAN', 'ABOVE', 'BELOW', 'OVER', 'NAIRA', 'KOBO', 'REJECT', 'REFUSE', 'BLOCK', 'DECLINE', 'ACCEPT', 'NEVER', 'ALLOWED', 'DISALLOW', 'REVIEW', 'FLAG', 'CHECK', 'VERIFY', 'HOLD', 'MANUAL', 'MANUALLY', 'SUSPICIOUS', 'INVESTIGATE', 'CONFIRM', 'MORE', 'GREATER', 'EXCEEDING', 'EXCEEDS', 'MILLION', 'THOUSAND']);

const words = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();
const has = (spaced: string, term: string) => spaced.includes(` ${term} `);
const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;

interface Clause {
  polarity: 'expect' | 'review' | 'reject';
  intents: Set<string>;
  only: boolean;
  words: string[];
  limitKobo?: number;
}

/** Reads a system prompt clause by clause: what it expects, what it wants reviewed or rejected. */
function readPrompt(prompt: string): Clause[] {
  return prompt
    .toLowerCase()
    .split(/[.;!?\n]+|\bbut\b/)
    .map((clause) => clause.trim())
    .filter(Boolean)
    .map((clause) => {
      const spaced = ` ${words(clause)} `;
      const intents = new Set(
        INTENTS.filter(
          (i) => has(spaced, words(i.label)) || has(spaced, words(i.intent.replace(/_/g, ' '))) || i.terms.some(([term, weight]) => weight >= 3 && has(spaced, term)),
        ).map((i) => i.intent),
      );
      const limit = LIMIT.exec(clause);
      let limitKobo: number | undefined;
      if (limit) {
        const scale = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6 }[limit[2] as 'k'] ?? 1;
        const value = Number(limit[1]!.replace(/,/g, '')) * scale;
        limitKobo = Math.round(limit[3] === 'kobo' ? value : value * 100);
      }
      const polarity: Clause['polarity'] = REJECT.test(clause) ? 'reject' : REVIEW.test(clause) ? 'review' : 'expect';
      const clauseWords = words(clause)
        .split(' ')
        .filter((w) => w.length >= 4 && !STOPWORDS.has(w) && !/^\d+$/.test(w));
      return { polarity, intents, only: /\bonly\b/.test(clause), words: clauseWords, ...(limitKobo !== undefined ? { limitKobo } : {}) };
    });
}

/**
 * The default analyser: offline, deterministic and explainable. It scores intents from a lexicon
 * of Nigerian narration terms, then lets the wallet's system_prompt raise confidence for what it
 * expects and flag what it wants reviewed or rejected.
 * @example await new RulesAnalyser().analyse({ narration: 'NIP/GTB/ADA OBI/RENT JAN 2026', systemPrompt: '', amount: 500000, senderName: 'ADA OBI' })
 */
export class RulesAnalyser implements NarrationAnalyser {
  async analyse(input: AnalysisInput): Promise<ServiceIntelligence> {
    return analyseNarration(input);
  }
}

export function analyseNarration({ narration, systemPrompt, amount, senderName }: AnalysisInput): ServiceIntelligence {
  const upper = narration.toUpperCase();
  const normal = words(narration);
  const spaced = ` ${normal} `;
  const explanation: string[] = [];
  const flags = new Set<string>();

  const scores = INTENTS.map((intent) => {
    const matched = intent.terms.filter(([term]) => has(spaced, term));
    let score = matched.reduce((sum, [, weight]) => sum + weight, 0);
    if (intent.intent === 'loan_repayment' && INSTALMENT.test(normal)) {
      score += 2;
      matched.push(['<n> OF <n>', 2]);
    }
    return { intent, score, matched };
  })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);

  const senderWords = new Set(words(senderName).split(' '));
  const tokens = normal ? normal.split(' ') : [];
  const generic = TRANSFER_TERMS.filter((t) => tokens.includes(t));

  let intent = 'unknown';
  let label = 'Uncategorised';
  let confidence: number;
  const best = scores[0];
  if (tokens.length === 0) {
    confidence = 0.1;
    flags.add('EMPTY_NARRATION');
    explanation.push('empty narration: nothing to read');
  } else if (best) {
    intent = best.intent.intent;
    label = best.intent.label;
    confidence = Math.min(0.95, 0.55 + 0.1 * best.score);
    explanation.push(`matched ${best.matched.map(([t]) => t).join(', ')} → ${intent} (score ${best.score})`);
    const runnerUp = scores[1];
    if (runnerUp && runnerUp.score === best.score) {
      confidence -= 0.2;
      flags.add('AMBIGUOUS_INTENT');
      explanation.push(`${runnerUp.intent.intent} scores the same: -0.2`);
    }
  } else if (generic.length > 0) {
    intent = 'transfer';
    label = 'Transfer';
    confidence = 0.6;
    explanation.push(`only transfer words (${generic.join(', ')}): a transfer with no stated purpose`);
  } else {
    confidence = 0.3;
    flags.add('UNCLEAR_NARRATION');
    const meaningful = tokens.filter((t) => !NOISE_TERMS.has(t) && !MONTHS.has(t) && !senderWords.has(t) && !/^\d+$/.test(t));
    explanation.push(meaningful.length ? `no known purpose in "${meaningful.join(' ')}"` : 'only names, numbers and bank codes');
  }

  for (const clause of readPrompt(systemPrompt)) {
    const about = clause.intents.has(intent);
    const mentionedWord = clause.words.find((w) => has(spaced, w));
    const overLimit = clause.limitKobo !== undefined && amount > clause.limitKobo;
    if (clause.polarity === 'expect') {
      if (about) {
        confidence += 0.15;
        explanation.push(`system prompt expects ${intent}: +0.15`);
      } else if (mentionedWord) {
        confidence += 0.2;
        explanation.push(`system prompt mentions ${mentionedWord}, which the narration has: +0.2`);
      } else if (clause.only && clause.intents.size > 0) {
        confidence -= 0.2;
        flags.add('UNEXPECTED_FOR_WALLET');
        explanation.push(`system prompt expects only ${[...clause.intents].join(', ')}: -0.2`);
      }
    } else if (about || mentionedWord || overLimit) {
      const flag = clause.polarity === 'reject' ? 'REJECTED_BY_PROMPT' : 'REVIEW_REQUESTED_BY_PROMPT';
      flags.add(flag);
      const what = overLimit ? `amounts above ${clause.limitKobo} kobo` : about ? intent : mentionedWord;
      explanation.push(`system prompt says to ${clause.polarity} ${what}: ${flag}`);
    }
  }

  const fraud = FRAUD_TERMS.filter((t) => has(spaced, t));
  if (fraud.length > 0) {
    flags.add('SUSPECTED_FRAUD');
    explanation.push(`fraud words: ${fraud.join(', ')}`);
  }
  if (upper.includes(RISK_MARKER)) {
    flags.add('SUSPECTED_FRAUD');
    explanation.push(`${RISK_MARKER} marker: SUSPECTED_FRAUD`);
  }
  if (upper.includes(LOW_MARKER)) {
    confidence = 0.2;
    explanation.push(`${LOW_MARKER} marker: confidence 0.2`);
  }

  return {
    raw_narration: narration,
    extracted_intent: intent,
    confidence_score: round(confidence),
    flags: [...flags].sort(),
    suggested_label: label,
    explanation,
  };
}

export function hasRiskFlag(intelligence: ServiceIntelligence): boolean {
  return intelligence.flags.some((flag) => RISK_FLAGS.has(flag));
}
