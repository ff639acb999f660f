import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { amountIn } from '../../src/engine/intelligence/instructions/amounts.js';
import { sentencesOf } from '../../src/engine/intelligence/instructions/grammar.js';
import { describeInstruction } from '../../src/engine/intelligence/instructions/rules.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';

const rules = (prompt: string) => describeInstruction(prompt).rules;
const kinds = (prompt: string) =>
  rules(prompt).map((r) => `${r.kind} ${r.action}${r.amount === undefined ? '' : ` ${r.amount}`}`);
const analyse = (narration: string, systemPrompt: string, amount = 100_000, senderName = 'ADA OBI') =>
  analyseNarration({ narration, systemPrompt, amount, senderName });
const held = (narration: string, systemPrompt: string, amount?: number, senderName?: string) =>
  holdReason(analyse(narration, systemPrompt, amount, senderName)) !== null;

describe('amounts as instructions write them, in kobo', () => {
  it.each([
    ['₦30', 3_000],
    ['N50k', 5_000_000],
    ['50k', 5_000_000],
    ['NGN 100,000', 10_000_000],
    ['NGN100000', 10_000_000],
    ['#2m', 200_000_000],
    ['1.5m', 150_000_000],
    ['₦1,500.50', 150_050],
    ['500 naira', 50_000],
    ['50 kobo', 50],
    ['fifty thousand naira', 5_000_000],
    ['two million', 200_000_000],
    ['one hundred and fifty thousand', 15_000_000],
    ['twenty-five thousand naira', 2_500_000],
    ['half a million', 50_000_000],
    ['five hundred naira', 50_000],
  ])('%s is %d kobo', (written, kobo) => {
    expect(amountIn(written)).toBe(kobo);
  });

  it('a count is no amount: "5 children", "two students", "over 5 months"', () => {
    expect([amountIn('5 children'), amountIn('two students'), amountIn('5 months')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('sentences', () => {
  it('splits at full stops but not at a decimal point, "e.g." or a reference\'s ellipsis', () => {
    expect(sentencesOf('Max ₦30.50 per payment. Refs e.g. INV-... only! Hold the rest?\nThanks')).toEqual([
      'Max ₦30.50 per payment',
      'Refs eg INV-… only',
      'Hold the rest',
      'Thanks',
    ]);
  });
});

describe('the grammar of wallet instructions: every rule kind', () => {
  it('the four examples the grammar was written for', () => {
    expect(rules('Hold every payment for manual review')).toEqual([
      { kind: 'hold_all', action: 'review', text: 'Hold every payment for manual review' },
    ]);
    expect(rules('Max ₦30 per payment, hold anything more')).toEqual([
      { kind: 'hold_above', action: 'review', amount: 3000, text: 'Max ₦30 per payment, hold anything more' },
    ]);
    expect(kinds('Only school fees; hold the others')).toEqual(['expect expect', 'only_purposes review']);
    expect(rules('Only school fees; hold the others')[1]!.purposes).toEqual(['school_fees']);
    expect(rules('Accept only payments that carry an invoice number (INV-…)')).toEqual([
      {
        kind: 'require_pattern',
        action: 'reject',
        pattern: 'INV-…',
        text: 'Accept only payments that carry an invoice number (INV-…)',
      },
    ]);
  });

  it('hold all: in every wording it knows, and the payment is held whatever it says', () => {
    for (const prompt of [
      'review everything',
      "don't credit anything automatically",
      'All payments must be reviewed manually.',
      'Put every payment on hold until I approve it',
      'Everything goes to manual review',
      'Please flag all incoming transfers for approval',
      'Nothing should be credited without my approval',
    ]) {
      expect(kinds(prompt), prompt).toEqual(['hold_all review']);
      expect(held('school fees JSS2', prompt), prompt).toBe(true);
    }
    expect(kinds('Reject everything')).toEqual(['hold_all reject']);
    expect(analyse('rent', 'review everything').explanation).toContain(
      'system prompt says to review every payment: REVIEW_REQUESTED_BY_PROMPT',
    );
  });

  it('"review everything else" and "review anything suspicious" hold nothing by themselves', () => {
    expect(kinds('review everything else')).toEqual([]);
    expect(held('school fees', 'review anything suspicious')).toBe(false);
  });

  it('hold above an amount, in any spelling of it', () => {
    expect(kinds('hold anything over 50k')).toEqual(['hold_above review 5000000']);
    expect(kinds('flag payments above NGN 100,000')).toEqual(['hold_above review 10000000']);
    expect(kinds('Review payments above fifty thousand naira')).toEqual(['hold_above review 5000000']);
    expect(kinds('reject anything over two million')).toEqual(['hold_above reject 200000000']);
    expect(kinds('hold payments above N1,500.50')).toEqual(['hold_above review 150050']);
    expect(kinds('Maximum per credit: NGN 200k. Anything more must be reviewed.')).toEqual([
      'hold_above review 20000000',
    ]);
    expect(rules('hold ₦1m and above')).toEqual([
      { kind: 'hold_above', action: 'review', amount: 100_000_000, inclusive: true, text: 'hold ₦1m and above' },
    ]);
    expect([
      held('rent', 'Max ₦30 per payment, hold anything more', 3_000),
      held('rent', 'Max ₦30, hold anything more', 3_001),
    ]).toEqual([false, true]);
  });

  it('hold below an amount', () => {
    expect(kinds('hold payments below ₦500')).toEqual(['hold_below review 50000']);
    expect(kinds('flag anything under 50 kobo')).toEqual(['hold_below review 50']);
    expect([
      held('rent', 'hold payments below ₦500', 49_999),
      held('rent', 'hold payments below ₦500', 50_000),
    ]).toEqual([true, false]);
  });

  it('only these purposes: the others are held, a payment that states none is not', () => {
    const prompt = 'accept only rent and service charge';
    expect(kinds(prompt)).toEqual(['only_purposes reject']);
    expect([held('house rent', prompt), held('salary for may', prompt), held('ADA OBI', prompt)]).toEqual([
      false,
      true,
      false,
    ]);
    expect(held('salary', 'Only school fees; hold the others')).toBe(true);
    expect(held('school fees', 'Only school fees; hold the others')).toBe(false);
  });

  it('never these purposes, never these senders', () => {
    expect(kinds('no betting money')).toEqual(['never_purposes reject']);
    expect(held('sportybet winnings', 'no betting money')).toBe(true);
    expect(held('school fees', 'no betting money')).toBe(false);
    expect(rules('reject anything from John Doe')).toEqual([
      { kind: 'never_senders', action: 'reject', senders: ['JOHN DOE'], text: 'reject anything from John Doe' },
    ]);
    expect(held('rent', 'reject anything from John Doe', 100_000, 'JOHN DOE')).toBe(true);
    expect(held('rent', 'reject anything from John Doe', 100_000, 'JOHN OKAFOR')).toBe(false);
    expect(kinds('Only payments from Tunde Bakare. Hold the rest.')).toEqual(['expect expect', 'only_senders review']);
  });

  it('require a pattern: a narration without the reference is held, one with it is not', () => {
    const prompt = 'narration must have a reference like ORD-1234';
    expect(rules(prompt)).toEqual([{ kind: 'require_pattern', action: 'review', pattern: 'ORD-…', text: prompt }]);
    expect([held('payment for ORD-5531', prompt), held('ord 5531 shoes', prompt), held('shoes', prompt)]).toEqual([
      false,
      false,
      true,
    ]);
    expect(analyse('shoes', prompt).explanation).toContain(
      'system prompt says to review payments without a reference like ORD-…: REVIEW_REQUESTED_BY_PROMPT',
    );
    expect(kinds('Hold payments without an invoice number, e.g. INV-2026-001')).toEqual(['require_pattern review']);
    expect(held('INV-2026-001 supply of cement', 'Hold payments without an invoice number, e.g. INV-2026-001')).toBe(
      false,
    );
  });

  it('a sentence that lets the rest through, or says "flag them" again, is read and holds nothing new', () => {
    expect(
      describeInstruction('Hold loan repayments for manual review; everything else is fine.').not_understood,
    ).toEqual([]);
    expect(describeInstruction('Do not accept loan repayments; flag them.').not_understood).toEqual([]);
  });
});

describe('what the grammar cannot read', () => {
  it.each([
    'The weather is nice today',
    'Be careful with my money',
    'Review anything suspicious',
    'Kindly do the needful',
  ])('"%s" is not understood, holds nothing, and the explanation says so', (prompt) => {
    expect(describeInstruction(prompt)).toEqual({ rules: [], not_understood: [prompt] });
    const reading = analyse('school fees JSS2', prompt);
    expect(holdReason(reading)).toBeNull();
    expect(reading.explanation).toContain(`instruction not understood: ${prompt}`);
  });

  it('a sentence it cannot read beside one it can: the one is a rule, the other only a line', () => {
    const prompt = 'Hold anything over 50k. Treat my customers like family.';
    expect(describeInstruction(prompt)).toEqual({
      rules: [{ kind: 'hold_above', action: 'review', amount: 5_000_000, text: 'Hold anything over 50k' }],
      not_understood: ['Treat my customers like family'],
    });
    expect([held('rent', prompt, 5_000_000), held('rent', prompt, 5_000_001)]).toEqual([false, true]);
  });
});
