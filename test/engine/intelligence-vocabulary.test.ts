import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { FRAUD_TERMS, INTENTS } from '../../src/engine/intelligence/lexicon.js';
import { words } from '../../src/engine/intelligence/prompt.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';
import { spelledAs } from '../../src/engine/intelligence/spelling.js';

const read = (narration: string, systemPrompt = '') =>
  analyseNarration({ narration, systemPrompt, amount: 100_000, senderName: 'SANDBOX SENDER' });
/** What a user of `ledger sandbox analyse` sees: the narration, its intent and where the payment goes. */
const outcome = (narration: string, systemPrompt = '') => {
  const r = read(narration, systemPrompt);
  return [narration, r.extracted_intent, holdReason(r) ?? 'CREDITED'];
};
const expectOutcomes = (cases: [string, string, string?][]) =>
  expect(cases.map(([n]) => outcome(n))).toEqual(cases.map(([n, intent, hold]) => [n, intent, hold ?? 'CREDITED']));

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
      ['owo ina', 'bills'],
      ['ego oku', 'bills'],
      ['kudin lantarki', 'bills'],
      ['light money', 'bills'],
      ['gas refill', 'bills'],
      ['owo oogun', 'medical'],
      ['ego ogwu', 'medical'],
      ['kudin magani', 'medical'],
      ['ufok ibok', 'medical'],
      ['chemist', 'medical'],
      ['owo ise', 'salary'],
      ['ugwo onwa', 'salary'],
      ['kudin aiki', 'salary'],
      ['igho iwinna', 'salary'],
      ['okuk utom', 'salary'],
      ['owo egbe', 'dues'],
      ['ego nzuko', 'dues'],
      ['kudin kungiya', 'dues'],
      ['umunna levy', 'dues'],
      ['August meeting', 'dues'],
      ['owo ounje', 'upkeep'],
      ['ego nri', 'upkeep'],
      ['kudin cefane', 'upkeep'],
      ['okuk udia', 'upkeep'],
      ['kwaghyan', 'upkeep'],
      ['ufok nwed', 'school_fees'],
      ['ulo akwukwo', 'school_fees'],
      ['islamiyya fees', 'school_fees'],
      ['post UTME', 'school_fees'],
      ['vow redemption', 'donation'],
      ['first fruits', 'donation'],
      ['RCCG building levy', 'donation'],
      ['zakat', 'donation'],
      ['idamewa', 'donation'],
      ['ufok abasi', 'donation'],
      ['owo oko', 'transport'],
      ['kudin mota', 'transport'],
      ['achaba', 'transport'],
      ['GIGM ticket', 'transport'],
      ['garri and beans', 'purchase'],
      ['5 mudu of rice', 'purchase'],
      ['urua', 'purchase'],
      ['iron rods', 'purchase'],
      ['gbese', 'loan_repayment'],
      ['ego m gbaziri', 'loan_repayment'],
      ['rancen kudi', 'loan_repayment'],
      ['imela', 'gift'],
      ['godiya', 'gift'],
      ['sosongo', 'gift'],
      ['urhuese', 'gift'],
      ['jaarama', 'gift'],
      ['kudin haya', 'rent'],
      ['okuk ufok', 'rent'],
      ['igho owa', 'rent'],
      ['ajo', 'savings'],
      ['adashe', 'savings'],
      ['RVSL', 'refund'],
    ]);
  });

  it('reads Yoruba, Igbo and Hausa written with their tone marks, dots and hooked letters', () => {
    expectOutcomes([
      ['owó iná', 'bills'],
      ['ẹgbẹ́', 'dues'],
      ['ego ọgwụ', 'medical'],
      ['ƙungiya', 'dues'],
      ["Mother's day", 'gift'],
      ['Ɗahiru Ƙabir', 'transfer'],
    ]);
  });

  it('holds the slang of each scheme, and credits the everyday words that look like it', () => {
    expectOutcomes([
      ['yahoo plus', 'payment', 'AI_RISK_FLAG'],
      ['sakawa', 'payment', 'AI_RISK_FLAG'],
      ['client money', 'payment', 'AI_RISK_FLAG'],
      ['picker balance', 'payment', 'AI_RISK_FLAG'],
      ['419 scam', 'payment', 'AI_RISK_FLAG'],
      ['419er', 'payment', 'AI_RISK_FLAG'],
      ['advance fee', 'payment', 'AI_RISK_FLAG'],
      ['investment ROI 40% weekly', 'payment', 'AI_RISK_FLAG'],
      ['recommitment', 'payment', 'AI_RISK_FLAG'],
      ['kidnap ransom balance', 'payment', 'AI_RISK_FLAG'],
      ['money ritual', 'payment', 'AI_RISK_FLAG'],
      ['egunje', 'payment', 'AI_RISK_FLAG'],
      ['mkpuru mmiri', 'payment', 'AI_RISK_FLAG'],
      ['client payment', 'payment'],
      ['salary part 419', 'salary'],
      ['pick up kids from school', 'school_fees'],
      ['Kola Adeyemi', 'transfer'],
      ['ROGER OKAFOR EZE', 'transfer'],
      ['juju band for the party', 'payment'],
    ]);
  });

  it('holds terror financing, trafficking, oil theft and the fees of fund-recovery scams, and credits the everyday words beside them', () => {
    expectOutcomes([
      ['support for boko haram brothers', 'upkeep', 'AI_RISK_FLAG'],
      ['iswap logistics', 'transport', 'AI_RISK_FLAG'],
      ['for the insurgents', 'payment', 'AI_RISK_FLAG'],
      ['arms dealer balance', 'payment', 'AI_RISK_FLAG'],
      ['baby factory balance', 'payment', 'AI_RISK_FLAG'],
      ['kidney for sale deposit', 'purchase', 'AI_RISK_FLAG'],
      ['trafficking girls to Libya', 'payment', 'AI_RISK_FLAG'],
      ['kpofire share', 'payment', 'AI_RISK_FLAG'],
      ['bunkering proceeds', 'payment', 'AI_RISK_FLAG'],
      ['illegal refinery', 'payment', 'AI_RISK_FLAG'],
      ['recovery fee for my lost funds', 'payment', 'AI_RISK_FLAG'],
      ['account reactivation', 'payment', 'AI_RISK_FLAG'],
      ['diplomatic bag clearance', 'purchase', 'AI_RISK_FLAG'],
      ['prize release', 'payment', 'AI_RISK_FLAG'],
      ['car recovery towing', 'purchase'],
      ['hospital bill recovery ward', 'medical'],
      ['traffic fine', 'payment'],
      ['baby food and diapers', 'upkeep'],
      ['diesel for generator', 'purchase'],
    ]);
  });

  it('holds a fee to unlock or release an inheritance (advance-fee fraud), and credits an inheritance shared in a family', () => {
    expectOutcomes([
      ['pay my wire transfer fee to unlock inheritance', 'payment', 'AI_RISK_FLAG'],
      ['inheritance fee balance', 'payment', 'AI_RISK_FLAG'],
      ['for inheritance release', 'payment', 'AI_RISK_FLAG'],
    ]);
    expect(outcome('inheritance share from papa estate')[2]).toBe('CREDITED');
  });

  it('reads a betting or crypto brand with digits as a word, so a prompt that forbids its topic holds it as a payment', () => {
    const prompt = 'Do not accept gambling money (Bet9ja, SportyBet, NairaBet).';
    expect([
      outcome('1xbet', prompt),
      outcome('22bet winnings', prompt),
      outcome('bitcoin', 'Reject payments that mention crypto, bitcoin or USDT.'),
    ]).toEqual([
      ['1xbet', 'payment', 'AI_RISK_FLAG'],
      ['22bet winnings', 'payment', 'AI_RISK_FLAG'],
      ['bitcoin', 'payment', 'AI_RISK_FLAG'],
    ]);
    expect(outcome('1xbet')).toEqual(['1xbet', 'payment', 'CREDITED']);
  });
});

describe('rules fixed after the outside corpus', () => {
  it('"payment for" is no purchase, and "services rendered" names none', () => {
    expectOutcomes([
      ['part payment for the job', 'payment'],
      ['being payment for services rendered', 'payment'],
      ['payment for goods', 'purchase'],
      ['cleaning services', 'purchase'],
    ]);
  });

  it('"money sent" is a general payment; "money transfer" and "funds trf" name the transfer', () => {
    expectOutcomes([
      ['money sent', 'payment'],
      ['money transfer', 'transfer'],
      ['funds trf', 'transfer'],
    ]);
  });

  it('an English word that ends or sits inside a run of names is a surname; one after a name in a sentence is not', () => {
    expectOutcomes([
      ['ALHAJI MUSTAPHA KOLO', 'transfer'],
      ['BELLO KOLO MUSA', 'transfer'],
      ['ADEX GLOBAL VENTURES', 'transfer'],
      ['my kolo', 'payment'],
      ['Tunde as discussed', 'payment'],
    ]);
    expect(read('ALHAJI MUSTAPHA KOLO').explanation).toEqual([
      'only channel words and names ("alhaji mustapha kolo"): a transfer with no stated purpose',
    ]);
  });

  it('buying gives way to what was bought, and says so', () => {
    expectOutcomes([
      ['drug purchase for mum', 'medical'],
      ['waybill for the goods', 'transport'],
      ['airtime purchase', 'bills'],
      ['rice purchase', 'purchase'],
      ['xmas purchase', 'purchase'],
    ]);
    expect(read('drug purchase for mum')).toMatchObject({
      flags: [],
      explanation: ['matched DRUG → medical (score 3)', 'PURCHASE names buying, not what was bought: not counted'],
    });
  });

  it('a phrase decides what its words mean: a building levy is a church’s, not a dues levy that ties with it', () => {
    expect(read('building levy')).toMatchObject({
      extracted_intent: 'donation',
      flags: [],
      explanation: ['matched BUILDING LEVY → donation (score 4)'],
    });
    expect(read('estate levy')).toMatchObject({ extracted_intent: 'dues', flags: [] });
  });

  it('reads a word cut short as the lexicon word it begins, only when every such word means the same', () => {
    // "supp" begins SUPPLY and SUPPORT, a purchase and upkeep: no reading.
    expect(['ACCOM', 'REIMB', 'CONTRIB', 'SUPP'].map(spelledAs)).toEqual([
      'ACCOMMODATION',
      'REIMBURSE',
      'CONTRI',
      undefined,
    ]);
    expectOutcomes([
      ['RENT FOR JANUA', 'rent'],
      ['ACCOM', 'rent'],
      ['REIMB', 'refund'],
    ]);
  });
});

describe('rules found on the third corpus’s tuning part', () => {
  const withAmount = (narration: string, systemPrompt: string, amount: number) =>
    holdReason(analyseNarration({ narration, systemPrompt, amount, senderName: 'SANDBOX SENDER' }));

  it('reads a lexicon phrase run together as one word, and says so', () => {
    expectOutcomes([
      ['schfees 3rdterm', 'school_fees'],
      ['houserent', 'rent'],
      ['chopmoney', 'upkeep'],
    ]);
    expect(read('schfees').explanation[0]).toBe('read "schfees" as SCH FEES');
  });

  it('reads two neighbouring slips as the phrase they misspell, and a narration cut inside its last word; names are left alone', () => {
    expectOutcomes([
      ['shool fess', 'school_fees'],
      ['NIP/FBN/ADEYEMI OLUWASEUN TOLULOPE/Being house ren', 'rent'],
      ['ADA OBI', 'transfer'],
      ['house', 'payment'],
    ]);
    expect(read('shool fess').explanation[0]).toBe('read "shool fess" as SCHOOL FEES');
  });

  it('the documents of a trade (supply, LPO, invoice) do not give way: a supplier paid for diesel made a sale', () => {
    expectOutcomes([
      ['Being payment for supply of diesel LPO 77', 'purchase'],
      ['diesel purchase', 'transport'],
      ['invoice for uniforms', 'purchase'],
    ]);
  });

  it('a wage or an allowance for one’s family is upkeep; "Mama" before a name is a title', () => {
    expectOutcomes([
      ['Monthly allowance for Mama in village', 'upkeep'],
      ['salary for my wife', 'upkeep'],
      ['Mama Ngozi salary', 'salary'],
      ['staff salary', 'salary'],
    ]);
  });

  it('"reject anything that is not rent" rejects another stated purpose, not rent and not a narration that states none', () => {
    const prompt =
      'This wallet collects rent for Adeola Estates. Expect rent and service charge. Reject anything that is not rent.';
    expect([outcome('Rent Flat 4B Jan-Dec', prompt), outcome('salary', prompt), outcome('payment', prompt)]).toEqual([
      ['Rent Flat 4B Jan-Dec', 'rent', 'CREDITED'],
      ['salary', 'salary', 'AI_RISK_FLAG'],
      ['payment', 'payment', 'CREDITED'],
    ]);
    const church =
      'Church offertory account. Accept tithes, offerings and pledges. Do not accept loan repayments; flag them.';
    expect([
      outcome('repayment of loan from Bro Femi', church),
      outcome('Thanksgiving offering family of Okoro', church),
    ]).toEqual([
      ['repayment of loan from Bro Femi', 'loan_repayment', 'AI_RISK_FLAG'],
      ['Thanksgiving offering family of Okoro', 'donation', 'CREDITED'],
    ]);
  });

  it('"amounts above ₦100k are unusual; review them" reviews the amounts above ₦100k', () => {
    const prompt = 'Upkeep wallet for my mother. Amounts above N100k are unusual; review them.';
    expect([
      withAmount('Upkeep for Mama', prompt, 45_000_000),
      withAmount('Upkeep for Mama', prompt, 5_000_000),
    ]).toEqual(['AI_RISK_FLAG', null]);
  });

  it('knows more words of its classes and more scam and slang phrases', () => {
    // Estate service charges, processors’ settlements, Fulfulde rent, charity; fake-alert, advance-fee,
    // hush-money and drug-slang phrases.
    expectOutcomes([
      ['estate svc chg', 'dues'],
      ['ZIB/ETRANZACT/ESTATE SERVICE CHARGE Q4 BLK C', 'dues'],
      ['service charge Q4 block C', 'rent'],
      ['Squad settlement SQ-0019282 09NOV', 'purchase'],
      ['ceede suudu', 'rent'],
      ['Ramadan feeding of orphans', 'donation'],
      ['pls confirm receipt', 'payment'],
      ['reversal for the fake credit alert', 'refund', 'AI_RISK_FLAG'],
      ['advance fee for contract approval release', 'payment', 'AI_RISK_FLAG'],
      ['clearance fee for your inheritance fund', 'payment', 'AI_RISK_FLAG'],
      ['hush money, keep quiet', 'payment', 'AI_RISK_FLAG'],
      ['wash wash chemical for black money', 'purchase', 'AI_RISK_FLAG'],
      ['payment for 2 wraps of loud', 'purchase', 'AI_RISK_FLAG'],
    ]);
  });
});

describe('defects the third corpus’s held-out part showed (fixed after its one measurement)', () => {
  const withAmount = (narration: string, systemPrompt: string, amount: number) =>
    outcomeOf(analyseNarration({ narration, systemPrompt, amount, senderName: 'SANDBOX SENDER' }));
  const outcomeOf = (r: ReturnType<typeof read>) => [r.extracted_intent, holdReason(r) ?? 'CREDITED'];

  it('a word counts once: "bills" is BILLS, not BILLS and its stem BILL', () => {
    expectOutcomes([
      ['ECOBANK/RAPIDTRANSFER/medical bills for Mum at Fed', 'medical'],
      ['bills', 'bills'],
    ]);
    expect(read('bills').explanation).toEqual(['matched BILLS → bills (score 2)']);
  });

  it('a clause with a limit and a purpose limits that purpose above the limit only', () => {
    const prompt = 'Savings wallet for Ikorodu market women cooperative. Reject single contributions over ₦50,000.';
    expect([
      withAmount('Esusu week 12', prompt, 1_000_000),
      withAmount('thrift contribution', prompt, 7_500_000),
      withAmount('salary', prompt, 7_500_000),
    ]).toEqual([
      ['savings', 'CREDITED'],
      ['savings', 'AI_RISK_FLAG'],
      ['salary', 'CREDITED'],
    ]);
  });

  it('"review anything else" after an "only" clause reviews every other stated purpose', () => {
    const prompt = 'Payroll wallet. Only salaries from Zenith Logistics Ltd. Review anything else.';
    expect([outcome('gift from aunty', prompt), outcome('October salary', prompt), outcome('payment', prompt)]).toEqual(
      [
        ['gift from aunty', 'gift', 'AI_RISK_FLAG'],
        ['October salary', 'salary', 'CREDITED'],
        ['payment', 'payment', 'CREDITED'],
      ],
    );
    expect(
      outcome('light bill', 'Owo ile nikan: only rent for Ogunlana compound. Review every other payment.'),
    ).toEqual(['light bill', 'bills', 'AI_RISK_FLAG']);
  });
});
