import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { CLEARABLE_SHAPES, inContext } from '../../src/engine/intelligence/risk-context.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';

const read = (narration: string) =>
  analyseNarration({ narration, systemPrompt: '', amount: 100_000, senderName: 'SANDBOX SENDER' });
/** What a user sees: where the payment goes. */
const routes = (narrations: string[]) => narrations.map((n) => [n, holdReason(read(n)) ?? 'CREDITED']);
const all = (narrations: string[], outcome: string) => narrations.map((n) => [n, outcome]);

/** Each context: innocent look-alikes it explains, and one line of the explanation a user reads. */
const CONTEXTS: [string, string[], [string, string]][] = [
  [
    'a financial product explains "ROI"',
    [
      'Quarterly ROI from the mutual fund',
      'Dividend and ROI on treasury bills',
      'ROI statement, FGN bond coupon',
      'Pension RSA ROI for the year',
    ],
    ['Quarterly ROI from the mutual fund', `"roi" with "mutual fund": a financial product's return, not a scheme's`],
  ],
  [
    'a course, training or campaign about it explains the subjects a lawful course teaches',
    [
      'Registration for the anti-fraud workshop',
      'Seminar on kidnapping and insecurity, hall booking',
      'Money laundering compliance training for staff',
      'Cultism sensitisation class for JSS3 students',
      'Bribery and corruption training',
      'Cyber security course: phishing and hacking module',
      'Book on human trafficking prevention',
      'Drug abuse awareness campaign: cocaine and tramadol',
      'Workshop fee: how to avoid scam and fraud online',
    ],
    [
      'Seminar on kidnapping and insecurity, hall booking',
      '"seminar on kidnapping": a course or campaign about it, not the act',
    ],
  ],
  [
    'a product the word is part of explains it: a farm chemical, a tool, security software',
    [
      'Weed control spray and fertilizer',
      'Glyphosate for weed, 4 litres',
      'Gramoxone and knapsack sprayer for weed on the plot',
      'Pistol grip spray nozzle for the garden hose',
      'Kaspersky renewal to keep hackers away',
    ],
    ['Glyphosate for weed, 4 litres', '"weed" with "glyphosate": a farm chemical or tool, not a drug'],
  ],
  [
    'negation just before the word says what the money is not',
    [
      'No be yahoo money, na my salary',
      'This is not ransom, just upkeep',
      'Not kidnap money o, na hospital bill',
      'Nothing to do with bunkering, diesel for the generator',
    ],
    ['This is not ransom, just upkeep', '"not ransom": negated, what the money is not'],
  ],
  [
    'a payment plan for work or goods explains an "advance fee" and a fee paid before something is released',
    [
      'Advance fee for the carpenter, balance on delivery',
      'Deposit so we can get the materials, balance after installation',
      'Part payment to get the tiles, balance on delivery',
      'Mobilisation for the roofing, advance fee, rest on completion',
    ],
    [
      'Part payment to get the tiles, balance on delivery',
      'a fee to release a larger sum with "balance on delivery": a payment plan for work or goods, not a fee for a windfall',
    ],
  ],
];

describe('context before a risk flag: a risk word the rest of the narration explains innocently is not fraud', () => {
  it.each(CONTEXTS)('%s', (_, narrations, [example, line]) => {
    expect(routes(narrations)).toEqual(all(narrations, 'CREDITED'));
    expect(read(example).explanation).toContain(line);
  });
});

describe('context never excuses the risky sentence the same words make', () => {
  it('the same risk words in risky sentences are still held', () => {
    const narrations = [
      'Advance fee to release your winnings',
      'ROI 50% in 7 days guaranteed',
      'Daily ROI, fixed deposit plan',
      'Yahoo training fee',
      'Weed for the boys, 3 wraps',
      'Fraud money, send it back quick',
      'Deposit to release your grant, balance after approval',
      'Advance payment to claim your lottery prize, balance on delivery',
      'Deposit to get the job, balance after you resume',
      'Kidnap money for the boys in the bush',
      'Hacked account proceeds',
      'Cocaine, balance on delivery',
    ];
    expect(routes(narrations)).toEqual(all(narrations, 'AI_RISK_FLAG'));
  });

  it("a fraud's own denial is no comfort, and an explicit threat is never explained", () => {
    const narrations = [
      'Not a scam, pay fee to release your prize',
      'No be 419 money, trust me',
      'This is not fake alert',
      'We will not expose you if you pay',
      'No be yahoo, pay or we expose you',
    ];
    expect(routes(narrations)).toEqual(all(narrations, 'AI_RISK_FLAG'));
  });

  it("a strong shape (a threat, a mule's cut, a person's release) is never cleared, and while it stands no word is either", () => {
    const narrations = [
      'Fraud awareness class, keep 10% and send the rest back',
      'Anti-fraud seminar: pay now or your account will be blocked',
      'Not ransom, money to release my brother',
      'Advance fee for the plumber, balance on delivery, keep 20% send the rest to my guy',
    ];
    expect(routes(narrations)).toEqual(all(narrations, 'AI_RISK_FLAG'));
    const mule = read('Fraud awareness class, keep 10% and send the rest back').explanation;
    expect(mule).toContain('fraud words: FRAUD');
    expect(mule.some((line) => line.includes('a course or campaign'))).toBe(false);
    // Shapes are strong unless named as clearable: one added later, under any name, clears nothing.
    const later = { shape: 'a threat to share private pictures' };
    expect(CLEARABLE_SHAPES.has(later.shape)).toBe(false);
    expect(inContext(['ROI'], [later], 'ROI ON MY FIXED DEPOSIT')).toEqual({
      terms: ['ROI'],
      shapes: [later],
      lines: [],
    });
  });
});
