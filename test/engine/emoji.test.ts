import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';

const read = (narration: string) =>
  analyseNarration({ narration, systemPrompt: '', amount: 100_000, senderName: 'SANDBOX SENDER' });
/** What a user sees: the intent, the confidence and where the payment goes. */
const outcome = (narration: string) => {
  const r = read(narration);
  return [narration, r.extracted_intent, r.confidence_score, holdReason(r) ?? 'CREDITED'];
};
/** Emoji alone, each credited as its intent at the emoji-only confidence. */
const expectCredited = (cases: [string, string][]) =>
  expect(cases.map(([n]) => outcome(n))).toEqual(cases.map(([n, intent]) => [n, intent, 0.55, 'CREDITED']));

describe('emoji that carry a purpose are read, not taken for an empty narration', () => {
  it('emoji alone are credited with a low but passing confidence, by meaning class', () => {
    expectCredited([
      ['🎂', 'gift'],
      ['💐', 'gift'],
      ['🎁🎁', 'gift'],
      ['🥂🎊', 'gift'],
      ['💒', 'gift'],
      ['🎓', 'gift'],
      ['⛪', 'donation'],
      ['🕌', 'donation'],
      ['💊', 'medical'],
      ['⛽', 'transport'],
      ['🧾', 'payment'],
    ]);
  });

  it('skin tones, variation selectors and joined sequences mean what their emoji means', () => {
    expectCredited([
      ['❤️', 'gift'],
      ['❤', 'gift'],
      ['👶🏽', 'gift'],
      ['👶🏿', 'gift'],
      ['👩‍❤️‍👨', 'gift'],
      ['🧑🏾‍🍼', 'gift'],
      ['👰🏻‍♀️', 'gift'],
    ]);
  });

  it('the explanation names what it read, and the most specific class wins', () => {
    expect(read('🎂').explanation).toEqual(['emoji only: 🎂 read as a birthday gift → gift']);
    expect(read('🎂🍾🎂').explanation).toEqual([
      'emoji only: 🎂 read as a birthday gift, 🍾 as a celebration gift → gift',
    ]);
    expect(read('🧾🕌')).toMatchObject({ extracted_intent: 'donation', suggested_label: 'Donation' });
    expect(read('🧾💝')).toMatchObject({ extracted_intent: 'gift', suggested_label: 'Gift' });
    expect(read('🧾')).toMatchObject({ suggested_label: 'General payment' });
  });

  it('punctuation alone, and faces, fire and flags alone, stay an empty narration', () => {
    const narrations = ['.', '-', '...', '//', '😂', '🔥🔥', '🇳🇬', '💯'];
    expect(narrations.map(outcome)).toEqual(narrations.map((n) => [n, 'unknown', 0.1, 'AI_LOW_CONFIDENCE']));
    expect(read('😂😂').explanation).toEqual(['😂 names no purpose: an empty narration']);
  });

  it('thanks and money alone say a payment was meant: a general payment, credited', () => {
    const narrations = ['🙏🏾', '🙏', '👍', '💸💸💸', '💰', '🤝'];
    expect(narrations.map(outcome)).toEqual(narrations.map((n) => [n, 'payment', 0.55, 'CREDITED']));
    expect(read('🙏🏾').explanation).toEqual(['emoji only: 🙏🏾 read as thanks: a payment → payment']);
  });

  it('beside words, emoji support what the words say and never override them', () => {
    expect(outcome('Tuition balance 🎂')).toEqual(['Tuition balance 🎂', 'school_fees', 0.95, 'CREDITED']);
    expect(outcome('Musa Bello 💐')).toEqual(['Musa Bello 💐', 'transfer', 0.6, 'CREDITED']);
    expect(outcome('asdfgh 🎁')).toEqual(['asdfgh 🎁', 'unknown', 0.3, 'AI_LOW_CONFIDENCE']);
    const agreed = read('Wedding gift for Ngozi 💍');
    expect(agreed).toMatchObject({ extracted_intent: 'gift', confidence_score: 0.95 });
    expect(read('Birthday money 🎉').explanation).toContain('emoji agree: 🎉 read as a celebration gift: +0.05');
    expect(read('Birthday money').confidence_score + 0.05).toBeCloseTo(read('Birthday money 🎉').confidence_score);
  });

  it('emoji never make a risky narration safe', () => {
    expect(holdReason(read('ransom 🎁🎉'))).toBe('AI_RISK_FLAG');
    expect(holdReason(read('🎂 SANDBOX-RISK'))).toBe('AI_RISK_FLAG');
    expect(holdReason(read('🎂 SANDBOX-LOW-CONFIDENCE'))).toBe('AI_LOW_CONFIDENCE');
  });
});
