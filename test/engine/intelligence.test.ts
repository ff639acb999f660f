import { describe, expect, it } from 'vitest';
import { holdReason, RISK_FLAGS, type ServiceIntelligence } from '../../src/engine/intelligence/analyser.js';
import { INTENTS } from '../../src/engine/intelligence/lexicon.js';
import { classifyToken, noiseReason } from '../../src/engine/intelligence/readable.js';
import { analyseNarration, RulesAnalyser } from '../../src/engine/intelligence/rules-analyser.js';
import { englishWords, wordListFrom } from '../../src/engine/intelligence/word-list.js';
import { corpus, heldOut, tuning, type CorpusCase } from '../fixtures/narration-corpus.js';

const run = (c: CorpusCase) =>
  analyseNarration({ narration: c.narration, systemPrompt: c.system_prompt ?? '', amount: c.amount ?? 100_000, senderName: c.sender_name ?? 'SANDBOX SENDER' });
const read = (narration: string, systemPrompt = '', amount = 100_000) => analyseNarration({ narration, systemPrompt, amount, senderName: 'SANDBOX SENDER' });
const isHeld = (r: ServiceIntelligence) => holdReason(r) !== null;
const right = (c: CorpusCase) => {
  const r = run(c);
  return r.extracted_intent === c.intent && r.suggested_label === c.label && isHeld(r) === c.held;
};
const share = (cases: CorpusCase[], test: (c: CorpusCase) => boolean) => cases.filter(test).length / cases.length;
const misses = (cases: CorpusCase[]) => JSON.stringify(cases.filter((c) => !right(c)).map((c) => c.narration));

describe('the narration corpus', () => {
  it('has at least 300 narrations, 40 with a system_prompt, every kind the issue asks for, and no duplicates', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(corpus.filter((c) => c.system_prompt).length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(corpus.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['abbreviation', 'channel', 'generic', 'local', 'marker', 'name', 'noise', 'prompt', 'risk', 'specific']);
    const keys = corpus.map((c) => JSON.stringify([c.narration, c.system_prompt, c.amount, c.sender_name]));
    expect(new Set(keys).size).toBe(corpus.length);
  });

  it('fits the API: narrations of at most 100 characters, labels that belong to their intents', () => {
    const labels = new Map<string, string>([...INTENTS.map((i) => [i.intent, i.label] as const), ['transfer', 'Transfer'], ['payment', 'General payment'], ['unknown', 'Uncategorised']]);
    for (const c of corpus) {
      expect(c.narration.length, c.narration).toBeLessThanOrEqual(100);
      expect(labels.get(c.intent), c.narration).toBe(c.label);
    }
  });

  it('is split by its seed into a tuning part and a held-out part of about 40% of the new narrations', () => {
    expect(tuning.length + heldOut.length).toBe(corpus.length);
    expect(heldOut.length).toBeGreaterThanOrEqual(150);
    expect(heldOut.every((c) => !c.part)).toBe(true);
    for (const kind of ['channel', 'name', 'local', 'generic', 'noise', 'prompt']) expect(heldOut.some((c) => c.kind === kind), kind).toBe(true);
  });
});

describe('the rules analyser on the corpus (intent, label and hold all right)', () => {
  it('gets at least 98% of the tuning part right', () => {
    expect(share(tuning, right), `misses: ${misses(tuning)}`).toBeGreaterThanOrEqual(0.98);
  });

  it('gets at least 95% of the held-out part right', () => {
    expect(share(heldOut, right), `misses: ${misses(heldOut)}`).toBeGreaterThanOrEqual(0.95);
  });

  it('meets the held-out targets: ≥ 95% routed right, ≤ 2% of legitimate held, every empty and gibberish narration held, every marker honoured', () => {
    expect(share(heldOut, (c) => isHeld(run(c)) === c.held)).toBeGreaterThanOrEqual(0.95);
    const legitimate = heldOut.filter((c) => !c.held);
    expect(share(legitimate, (c) => isHeld(run(c)))).toBeLessThanOrEqual(0.02);
    const noise = heldOut.filter((c) => c.kind === 'noise');
    expect(noise.filter((c) => !isHeld(run(c))).map((c) => c.narration)).toEqual([]);
    const markers = corpus.filter((c) => c.kind === 'marker');
    expect(markers.filter((c) => !isHeld(run(c))).map((c) => c.narration)).toEqual([]);
  });
});

describe('readable or noise', () => {
  it('credits the generic payments the issue found held, at or above the hold threshold', () => {
    for (const narration of ['payment', 'Payment', 'deposit', 'top up', 'wallet top up', 'part payment', 'test']) {
      const r = read(narration);
      expect([narration, r.extracted_intent, r.suggested_label, holdReason(r)]).toEqual([narration, 'payment', 'General payment', null]);
      expect(r.confidence_score).toBeGreaterThanOrEqual(0.5);
    }
    expect([read('thank you').extracted_intent, holdReason(read('thank you'))]).toEqual(['gift', null]);
  });

  it('reads a name alone as a transfer, and words without a purpose as a general payment', () => {
    expect(read('Oluwaferanmi Adesanya')).toMatchObject({ extracted_intent: 'transfer', confidence_score: 0.6, flags: [] });
    expect(read('as discussed')).toMatchObject({ extracted_intent: 'payment', confidence_score: 0.55, explanation: ['readable ("as discussed") but no specific purpose → payment'] });
  });

  it('tells noise from words and names, and says why', () => {
    const kind = (token: string) => classifyToken(token, new Set());
    expect(['ASDFGH', 'QWERTY', 'ZZZ', 'HDHDHD', 'XCVB', 'FJDIWO'].map(kind)).toEqual(['noise', 'noise', 'noise', 'noise', 'noise', 'noise']);
    expect(['DISCUSSED', 'NGOZI', 'CHUKWUEBUKA', 'DAYYABU', 'ABEG', 'NIP', 'DEPOSIT', '2026'].map(kind)).toEqual(['word', 'name', 'name-like', 'name-like', 'filler', 'transfer', 'generic', 'neutral']);
    expect(['ASDFGH', 'ZZZ', 'HDHDHD', 'KDFGT', 'FJDIWO'].map(noiseReason)).toEqual(['a keyboard run', 'one key held down', 'a short pattern repeated', 'no vowel', '"fj" hardly occurs in words or names']);
  });

  it('uses the word-list package: 274,000 words, looked up exactly', () => {
    const words = englishWords();
    expect(words.size).toBeGreaterThan(270_000);
    expect(['payment', 'upkeep', 'discussed'].map((w) => words.has(w))).toEqual([true, true, true]);
    expect(['asdf', 'Payment', 'pay ment', ''].map((w) => words.has(w))).toEqual([false, false, false, false]);
    const small = wordListFrom(new TextEncoder().encode('ab\nabc\nb\n'));
    expect([small.size, small.has('ab'), small.has('abc'), small.has('a'), small.pairCount('^', 'a'), small.pairCount('b', '$')]).toEqual([3, true, true, false, 2, 2]);
  });
});

describe('reasons and flags', () => {
  it('EMPTY_NARRATION: no text, punctuation only, or words that say nothing', () => {
    for (const narration of ['', '   ', '...', 'N/A', 'nil']) {
      expect(read(narration)).toMatchObject({ extracted_intent: 'unknown', confidence_score: 0.1, flags: ['EMPTY_NARRATION'] });
      expect(holdReason(read(narration))).toBe('AI_LOW_CONFIDENCE');
    }
  });

  it('UNCLEAR_NARRATION: gibberish, digits only, keyboard runs', () => {
    expect(read('asdfgh')).toMatchObject({ confidence_score: 0.3, flags: ['UNCLEAR_NARRATION'], explanation: ['unreadable: "asdfgh" (a keyboard run)'] });
    expect(read('08031234567')).toMatchObject({ confidence_score: 0.3, flags: ['UNCLEAR_NARRATION'], explanation: ['only numbers and codes: "08031234567"'] });
  });

  it('AMBIGUOUS_INTENT: two purposes that score the same lose 0.2', () => {
    expect(read('rent and fuel')).toMatchObject({
      extracted_intent: 'rent',
      confidence_score: 0.65,
      flags: ['AMBIGUOUS_INTENT'],
      explanation: ['matched RENT → rent (score 3)', 'transport scores the same: -0.2'],
    });
  });

  it('UNEXPECTED_FOR_WALLET: another purpose than the one the prompt expects only; no stated purpose is not one', () => {
    const prompt = 'This wallet only receives rent from tenants.';
    expect(read('salary', prompt)).toMatchObject({ flags: ['UNEXPECTED_FOR_WALLET'], confidence_score: 0.75 });
    expect(read('transfer', prompt)).toMatchObject({ flags: [], confidence_score: 0.6 });
    expect(read('payment', prompt)).toMatchObject({ flags: [], confidence_score: 0.6 });
  });

  it('SUSPECTED_FRAUD from fraud words and from the marker; pidgin "chop money" is upkeep, not fraud', () => {
    expect(read('fake alert').flags).toEqual(['SUSPECTED_FRAUD']);
    expect(read('rent SANDBOX-RISK').flags).toEqual(['SUSPECTED_FRAUD']);
    expect(read('chop money for d week')).toMatchObject({ extracted_intent: 'upkeep', flags: [] });
  });

  it('REJECTED_BY_PROMPT and REVIEW_REQUESTED_BY_PROMPT, by intent, by a word of the topic the prompt names, by amount', () => {
    expect(read('quickcredit loan repay', 'Do not accept payments mentioning loans.').flags).toEqual(['REJECTED_BY_PROMPT']);
    expect(read('sportybet payout', 'Reject anything about betting or gambling.').flags).toEqual(['REJECTED_BY_PROMPT']);
    expect(read('salary', 'Hold any payment above ₦500k for a manual check.', 50_000_001).flags).toEqual(['REVIEW_REQUESTED_BY_PROMPT']);
    expect(read('salary', 'Hold any payment above ₦500k for a manual check.', 50_000_000).flags).toEqual([]);
    expect(read('refund', 'School fees only. Refuse refunds and reversals.').flags).toEqual(['REJECTED_BY_PROMPT', 'UNEXPECTED_FOR_WALLET']);
  });

  it('a risk flag outranks low confidence: risky and unclear is AI_RISK_FLAG', () => {
    const r = read('asdfgh SANDBOX-RISK');
    expect([r.confidence_score, r.flags, holdReason(r)]).toEqual([0.3, ['SUSPECTED_FRAUD', 'UNCLEAR_NARRATION'], 'AI_RISK_FLAG']);
    expect(holdReason(read('rent SANDBOX-LOW-CONFIDENCE SANDBOX-RISK'))).toBe('AI_RISK_FLAG');
    expect(holdReason(read('rent SANDBOX-LOW-CONFIDENCE'))).toBe('AI_LOW_CONFIDENCE');
    expect(holdReason(read('rent'))).toBeNull();
  });

  it('returns the interface document’s fields with flags from the documented list', () => {
    const r = read('SANDBOX-RISK school fees');
    expect(Object.keys(r)).toEqual(['raw_narration', 'extracted_intent', 'confidence_score', 'flags', 'suggested_label', 'explanation']);
    expect([...RISK_FLAGS].sort()).toEqual(['REJECTED_BY_PROMPT', 'REVIEW_REQUESTED_BY_PROMPT', 'SUSPECTED_FRAUD']);
    const documented = new Set([...RISK_FLAGS, 'EMPTY_NARRATION', 'UNCLEAR_NARRATION', 'AMBIGUOUS_INTENT', 'UNEXPECTED_FOR_WALLET']);
    expect(corpus.flatMap((c) => run(c).flags).filter((f) => !documented.has(f))).toEqual([]);
  });
});

describe('determinism', () => {
  it('gives the same analysis for the same narration and prompt, byte for byte, across the corpus', async () => {
    const first = corpus.map((c) => JSON.stringify(run(c)));
    const analyser = new RulesAnalyser();
    const second = await Promise.all(
      corpus.map(async (c) => JSON.stringify(await analyser.analyse({ narration: c.narration, systemPrompt: c.system_prompt ?? '', amount: c.amount ?? 100_000, senderName: c.sender_name ?? 'SANDBOX SENDER' }))),
    );
    expect(second).toEqual(first);
  });
});
