import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { FRAUD_TERMS, INTENTS } from '../../src/engine/intelligence/lexicon.js';
import { words } from '../../src/engine/intelligence/prompt.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';
import { spelledAs } from '../../src/engine/intelligence/spelling.js';

const read = (narration: string, systemPrompt = '') => analyseNarration({ narration, systemPrompt, amount: 100_000, senderName: 'SANDBOX SENDER' });
/** What a user of `ledger sandbox analyse` sees: the narration, its intent and where the payment goes. */
const outcome = (narration: string, systemPrompt = '') => {
  const r = read(narration, systemPrompt);
  return [narration, r.extracted_intent, holdReason(r) ?? 'CREDITED'];
};
const expectOutcomes = (cases: [string, string, string?][]) => expect(cases.map(([n]) => outcome(n))).toEqual(cases.map(([n, intent, hold]) => [n, intent, hold ?? 'CREDITED']));

describe('the lexicon, written out by language', () => {
  it('reads every term alone as its intent, credited, and holds every risk word alone as AI_RISK_FLAG', () => {
    const terms = INTENTS.flatMap((i) => i.terms.map(([term]) => [term, i.intent] as const));
    expect(terms.length).toBeGreaterThan(900);
    expect(terms.filter(([term]) => words(term) !== term)).toEqual([]);
    expect(terms.map(([term]) => outcome(term))).toEqual(terms.map(([term, intent]) => [term, intent, 'CREDITED']));
    expect(FRAUD_TERMS.length).toBeGreaterThan(90);
    expect(FRAUD_TERMS.map((t) => [t, holdReason(read(t))])).toEqual(FRAUD_TERMS.map((t) => [t, 'AI_RISK_FLAG']));
  });

  it('knows each intent in English, pidgin, Yoruba, Igbo and Hausa, and in Efik, Edo, Urhobo, Tiv and Fulfulde where it can', () => {
    expectOutcomes([
      ['owo ina', 'bills'], ['ego oku', 'bills'], ['kudin lantarki', 'bills'], ['light money', 'bills'], ['gas refill', 'bills'],
      ['owo oogun', 'medical'], ['ego ogwu', 'medical'], ['kudin magani', 'medical'], ['ufok ibok', 'medical'], ['chemist', 'medical'],
      ['owo ise', 'salary'], ['ugwo onwa', 'salary'], ['kudin aiki', 'salary'], ['igho iwinna', 'salary'], ['okuk utom', 'salary'],
      ['owo egbe', 'dues'], ['ego nzuko', 'dues'], ['kudin kungiya', 'dues'], ['umunna levy', 'dues'], ['August meeting', 'dues'],
      ['owo ounje', 'upkeep'], ['ego nri', 'upkeep'], ['kudin cefane', 'upkeep'], ['okuk udia', 'upkeep'], ['kwaghyan', 'upkeep'],
      ['ufok nwed', 'school_fees'], ['ulo akwukwo', 'school_fees'], ['islamiyya fees', 'school_fees'], ['post UTME', 'school_fees'],
      ['vow redemption', 'donation'], ['first fruits', 'donation'], ['RCCG building levy', 'donation'], ['zakat', 'donation'], ['idamewa', 'donation'], ['ufok abasi', 'donation'],
      ['owo oko', 'transport'], ['kudin mota', 'transport'], ['achaba', 'transport'], ['GIGM ticket', 'transport'],
      ['garri and beans', 'purchase'], ['5 mudu of rice', 'purchase'], ['urua', 'purchase'], ['iron rods', 'purchase'],
      ['gbese', 'loan_repayment'], ['ego m gbaziri', 'loan_repayment'], ['rancen kudi', 'loan_repayment'],
      ['imela', 'gift'], ['godiya', 'gift'], ['sosongo', 'gift'], ['urhuese', 'gift'], ['jaarama', 'gift'],
      ['kudin haya', 'rent'], ['okuk ufok', 'rent'], ['igho owa', 'rent'], ['ajo', 'savings'], ['adashe', 'savings'], ['RVSL', 'refund'],
    ]);
  });

  it('reads Yoruba, Igbo and Hausa written with their tone marks, dots and hooked letters', () => {
    expectOutcomes([['owó iná', 'bills'], ['ẹgbẹ́', 'dues'], ['ego ọgwụ', 'medical'], ['ƙungiya', 'dues'], ["Mother's day", 'gift'], ['Ɗahiru Ƙabir', 'transfer']]);
  });

  it('holds the slang of each scheme, and credits the everyday words that look like it', () => {
    expectOutcomes([
      ['yahoo plus', 'payment', 'AI_RISK_FLAG'], ['sakawa', 'payment', 'AI_RISK_FLAG'], ['client money', 'payment', 'AI_RISK_FLAG'], ['picker balance', 'payment', 'AI_RISK_FLAG'],
      ['419', 'payment', 'AI_RISK_FLAG'], ['advance fee', 'payment', 'AI_RISK_FLAG'], ['investment ROI 40% weekly', 'payment', 'AI_RISK_FLAG'], ['recommitment', 'payment', 'AI_RISK_FLAG'],
      ['kidnap ransom balance', 'payment', 'AI_RISK_FLAG'], ['money ritual', 'payment', 'AI_RISK_FLAG'], ['egunje', 'payment', 'AI_RISK_FLAG'], ['mkpuru mmiri', 'payment', 'AI_RISK_FLAG'],
      ['client payment', 'payment'], ['pick up kids from school', 'school_fees'], ['Kola Adeyemi', 'transfer'], ['ROGER OKAFOR EZE', 'transfer'], ['juju band for the party', 'payment'],
    ]);
  });

  it('reads a betting or crypto brand with digits as a word, so a prompt that forbids its topic holds it as a payment', () => {
    const prompt = 'Do not accept gambling money (Bet9ja, SportyBet, NairaBet).';
    expect([outcome('1xbet', prompt), outcome('22bet winnings', prompt), outcome('bitcoin', 'Reject payments that mention crypto, bitcoin or USDT.')]).toEqual([
      ['1xbet', 'payment', 'AI_RISK_FLAG'], ['22bet winnings', 'payment', 'AI_RISK_FLAG'], ['bitcoin', 'payment', 'AI_RISK_FLAG'],
    ]);
    expect(outcome('1xbet')).toEqual(['1xbet', 'payment', 'CREDITED']);
  });
});

describe('rules fixed after the outside corpus', () => {
  it('"payment for" is no purchase, and "services rendered" names none', () => {
    expectOutcomes([['part payment for the job', 'payment'], ['being payment for services rendered', 'payment'], ['payment for goods', 'purchase'], ['cleaning services', 'purchase']]);
  });

  it('"money sent" is a general payment; "money transfer" and "funds trf" name the transfer', () => {
    expectOutcomes([['money sent', 'payment'], ['money transfer', 'transfer'], ['funds trf', 'transfer']]);
  });

  it('an English word that ends or sits inside a run of names is a surname; one after a name in a sentence is not', () => {
    expectOutcomes([['ALHAJI MUSTAPHA KOLO', 'transfer'], ['BELLO KOLO MUSA', 'transfer'], ['ADEX GLOBAL VENTURES', 'transfer'], ['my kolo', 'payment'], ['Tunde as discussed', 'payment']]);
    expect(read('ALHAJI MUSTAPHA KOLO').explanation).toEqual(['only channel words and names ("alhaji mustapha kolo"): a transfer with no stated purpose']);
  });

  it('buying gives way to what was bought, and says so', () => {
    expectOutcomes([['drug purchase for mum', 'medical'], ['waybill for the goods', 'transport'], ['airtime purchase', 'bills'], ['rice purchase', 'purchase'], ['xmas purchase', 'purchase']]);
    expect(read('drug purchase for mum')).toMatchObject({ flags: [], explanation: ['matched DRUG → medical (score 3)', 'PURCHASE names buying, not what was bought: not counted'] });
  });

  it('a phrase decides what its words mean: a building levy is a church’s, not a dues levy that ties with it', () => {
    expect(read('building levy')).toMatchObject({ extracted_intent: 'donation', flags: [], explanation: ['matched BUILDING LEVY → donation (score 4)'] });
    expect(read('estate levy')).toMatchObject({ extracted_intent: 'dues', flags: [] });
  });

  it('reads a word cut short as the lexicon word it begins, only when every such word means the same', () => {
    // "supp" begins SUPPLY and SUPPORT, a purchase and upkeep: no reading.
    expect(['ACCOM', 'REIMB', 'CONTRIB', 'SUPP'].map(spelledAs)).toEqual(['ACCOMMODATION', 'REIMBURSE', 'CONTRI', undefined]);
    expectOutcomes([['RENT FOR JANUA', 'rent'], ['ACCOM', 'rent'], ['REIMB', 'refund']]);
  });
});
