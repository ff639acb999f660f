import { FAMILY_WORDS } from './nigerian-words.js';

/**
 * Fraud by its shape, not by one writer's words: scams and crimes announce themselves by form as much
 * as by slang. Each shape is a rule a reader can review, with the look-alikes it leaves alone. The
 * narration is read as its words in upper case, spaced (" FEE TO RELEASE MY PRIZE "), and as written
 * in upper case for what words drop ("50%").
 */
const alt = (list: string) =>
  list
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .join('|');
const anyOf = (list: string) => new RegExp(String.raw` (?:${alt(list)}) `);

/** What a scam promises to hand over once a fee is paid. */
const GAINS = anyOf(
  'PRIZE, PRIZES, WINNINGS, WINNING, REWARD, REWARDS, GRANT, LOAN, PARCEL, PACKAGE, CONSIGNMENT, FUNDS, FUND, ' +
    'PROFIT, PROFITS, INHERITANCE, COMPENSATION, PAYOUT, AWARD, LOTTERY, JACKPOT, BOX, CASHBACK, AIRDROP, BONUS, ' +
    'SALARY, JOB, ATM CARD',
);
/** Paying to set it free. */
const RELEASING = anyOf(
  'RELEASE, RELEASED, UNLOCK, UNLOCKING, UNBLOCK, ACTIVATE, ACTIVATION, REACTIVATE, REACTIVATION, UPGRADE, ' +
    'CLAIM, CLAIMING, REDEEM, DISBURSE, DISBURSEMENT, CLEAR, CLEARANCE',
);
/** A bank's withdrawal charge and a clearing agent's fee are lawful: neither is here. */
const FEES = anyOf('FEE, FEES, CHARGE, CHARGES, CODE, TAX');
/** "Fee to receive", "pay before you claim": money first, the larger sum after. */
const FEE_BEFORE = new RegExp(
  ` (?:${alt('FEE, FEES, CHARGE, CHARGES, PAY, PAYMENT, DEPOSIT')}) (?:(?:TO|BEFORE|B4|SO|YOU|U|I|WE|CAN|CA) ` +
    `)+(?:${alt('RECEIVE, CLAIM, WITHDRAW, UNLOCK, RELEASE, ACTIVATE, GET THE, GET YOUR, GET MY')}) `,
);
/** Government and its channels: a real duty or levy, cleared through the state, is a bill. */
const OFFICIAL = anyOf(
  'NCS, NIGERIA CUSTOMS SERVICE, CUSTOMS DUTY, IMPORT DUTY, DUTY, PAAR, FORM M, REMITA, FIRS, ASYCUDA, CLEARING AGENT',
);

/** A rate per period: "50% in 7 days", "10% daily", "30 percent weekly". */
const RATE = new RegExp(
  String.raw`(\d+(?:\.\d+)?) ?(?:%|PERCENT|PCT)\s*(?:PROFIT|RETURNS?|ROI|INTEREST|GAIN)?\s*` +
    String.raw`(?:IN|WITHIN|EVERY|PER|AFTER|EACH|A)?\s*(\d+)?\s*` +
    String.raw`(HOURS?|HRS?|H|DAYS?|DAILY|WEEKS?|WEEKLY|WKS?|MONTHS?|MONTHLY|MTHS?)\b`,
);
const DAYS_IN: [RegExp, number][] = [
  [/^H/, 1 / 24],
  [/^(?:DAY|DAILY)/, 1],
  [/^(?:WEEK|WK)/, 7],
  [/^(?:MONTH|MTH)/, 30],
];
/** A multiple of the stake: "x2", "2x", "3 times", "double". */
const MULTIPLE = / (?:X ?[2-9]|[2-9] ?X|[2-9] TIMES|DOUBLE|DOUBLED|TRIPLE|TRIPLED)(?= )/;
/** What is staked: "double room" and "return ticket x2" stake nothing. */
const STAKED = anyOf('INVEST, INVESTMENT, INVESTED, RETURNS, PROFIT, PROFITS, ROI, CAPITAL, STAKE');
/** A rate that is charged, not promised: a loan's interest, a discount, a tax, a commission. */
const CHARGED = anyOf('LOAN, LOANS, REPAYMENT, PENALTY, LATE, OVERDUE, DISCOUNT, OFF, VAT, TAX, COMMISSION');
/** A thrift pays out what its members put in, in turn: "ajo 5k collect 60k". */
const THRIFT = anyOf('AJO, ESUSU, OSUSU, ADASHE, THRIFT, CONTRIBUTION, COOPERATIVE, COOP, CONTRIBUTORS');
const GUARANTEED = new RegExp(
  String.raw` (?:GUARANTEED|GUARANTEE|ASSURED|SURE|FIXED) (?:\w+ )?` +
    String.raw`(?:RETURN|RETURNS|PROFIT|PROFITS|PAYOUT|ROI|INCOME|GAIN|GAINS)(?= )|` +
    String.raw` (?:RETURNS?|PROFITS?|ROI) (?:IS |ARE )?(?:GUARANTEED|ASSURED)(?= )`,
);
/** "Send 20k receive 200k": a stake and a larger sum back. */
const STAKE_BACK =
  /(\d+(?:\.\d+)?) ?(K|M)?\b[^\d]{0,25}?\b(?:RECEIVE|GET|COLLECT|RETURNS?|GIVES?|BECOMES?|TURNS? TO|EARN|PAYS?)\b[^\d]{0,12}?(\d+(?:\.\d+)?) ?(K|M)?\b/;
const amountOf = (n: string, scale: string | undefined) => Number(n) * (scale === 'K' ? 1e3 : scale === 'M' ? 1e6 : 1);

/** Secrecy: "don't tell anyone", "keep it between us", "delete this chat". A surprise for an occasion keeps its secret innocently. */
const SECRECY = new RegExp(
  String.raw` (?:(?:DONT|DO NOT|NO|NEVER|NOT) (?:TELL|INFORM|SHOW|DISCLOSE|MENTION)|TELL NO ?(?:ONE|BODY)|` +
    String.raw`NOBODY (?:MUST|SHOULD|GO) KNOW|KEEP (?:IT |THIS |AM |DIS |THE \w+ )?` +
    String.raw`(?:SECRET|QUIET|CONFIDENTIAL|BETWEEN US|OFF THE RECORD)|` +
    String.raw`BETWEEN (?:US|YOU AND ME|U AND ME|U AND I)|DELETE (?:THIS|THE|DIS|AFTER|ALL)|NO QUESTIONS) `,
);
const OCCASION = anyOf('SURPRISE, BIRTHDAY, BDAY, ANNIVERSARY, PARTY, PROPOSAL, WEDDING, XMAS, CHRISTMAS, VALENTINE');
/** Urgency with a threat: "pay now or your account will be blocked". */
const THREAT = new RegExp(
  String.raw` (?:OR|ELSE|BEFORE|OTHERWISE|IF NOT)\b.{0,40}` +
    String.raw`\b(?:BLOCKED|BLOCK|SUSPENDED|DEACTIVATED|FROZEN|FREEZE|FORFEIT|FORFEITED|CANCELLED|ARREST|` +
    String.raw`ARRESTED|JAIL|EXPOSE|EXPOSED|LOSE IT|LOST FOREVER|CLOSED|DELETED)(?= )`,
);
const URGENT =
  / (?:URGENT|URGENTLY|NOW|TODAY|IMMEDIATELY|ASAP|WITHIN \d+|IN \d+ (?:HOURS?|HRS?|MINS?|MINUTES?)|\d+ ?HRS?|\d+ ?HOURS?) /;

/** Paying for what cannot be bought: a score, a grade, a certificate, a place. A result checker is bought lawfully. */
const BUYING = anyOf(
  'BUY, BUYING, BOUGHT, SORT, SORTING, SORTED, UPGRADE, UPGRADING, INCREASE, BOOST, FIX, FIXING, SECURE, SECURING, GUARANTEED, GUARANTEE',
);
/** "Grade A eggs" is bought: a grade only in the plural. */
const UNBUYABLE = anyOf(
  'SCORE, SCORES, GRADES, RESULT, RESULTS, CGPA, GPA, MARKS, ADMISSION, CERTIFICATE, DEGREE, DIPLOMA, NYSC DISCHARGE, EXEMPTION LETTER',
);
const LAWFUL_PURCHASE = anyOf(
  'CHECKER, SCRATCH CARD, CARD, PIN, FORM, FORMS, ACCEPTANCE, COLLECTION, FRAME, LAMINATION, VERIFICATION, PRINTING',
);
/** A place in a service that recruits by merit, bought: "slot in Customs", "army enlistment sure". */
const PLACES = anyOf('SLOT, SLOTS, POSITION, ENLISTMENT, PLACEMENT');
const SERVICES = anyOf(
  'CUSTOMS, ARMY, NAVY, AIRFORCE, AIR FORCE, POLICE, NNPC, CBN, IMMIGRATION, NDLEA, DSS, NSCDC, CIVIL DEFENCE, ' +
    'FIRS, NIS, FRSC, NPA, NIMASA, NCS, EFCC, PRISON, CORRECTIONAL',
);
/** Leaked papers: "expo" or "runs" with an exam; a book or a trade expo is an exhibition. */
const LEAK = anyOf('EXPO, RUNS, QUESTION PAPER, QUESTION PAPERS, LEAKED, QUESTIONS AND ANSWERS, ANSWERS');
const EXAMS = anyOf(
  'WAEC, NECO, JAMB, NABTEB, GCE, BECE, UTME, SSCE, POST UTME, EXAM, EXAMS, MATHS, MATHEMATICS, ENG, ENGLISH, PHYSICS, CHEMISTRY, BIOLOGY, ECONOMICS',
);
const EXHIBITION = anyOf(
  'BOOK, TRADE, FAIR, EXHIBITION, TICKET, TICKETS, STAND, BOOTH, CAR, AUTO, ART, TECH, FOOD, FASHION, WEDDING, HOME',
);

/** A person set free for money: ransom in other words. Release of a result, a car or goods is not. */
const PERSON_RELEASE = new RegExp(
  ' RELEASE (?:OF )?(?:MY |OUR |HIS |HER |THEIR |THE |DI |D )?' +
    '(?:BROTHER|SISTER|SON|DAUGHTER|WIFE|HUSBAND|FATHER|MOTHER|DAD|DADDY|MUM|MUMMY|MAMA|PAPA|BABY|' +
    'CHILD|UNCLE|AUNTY|AUNTIE|COUSIN|NEPHEW|NIECE|BOSS|PASTOR|VICTIM|AM|HIM|HER|THEM)' +
    '(?= (?!RESULT|RESULTS|CERTIFICATE|SALARY|CAR|GOODS|LETTER|DOCUMENT|DOCUMENTS|FILE|PAY)| ?$)|' +
    ' (?:HIS|HER|THEIR|MY|OUR) RELEASE | CAPTORS ',
);

/** An official paid to act against the law: "for police, make dem drop the case". A fine or a report is lawful. */
const OFFICIALS = anyOf(
  'POLICE, POLICEMAN, POLICEMEN, OFFICER, OFFICERS, DPO, IPO, CID, SARS, JUDGE, MAGISTRATE, LECTURER, ' +
    'EXAMINER, INVIGILATOR, VIO, LASTMA, FRSC, KAI, TASKFORCE, TASK FORCE, CUSTOMS OFFICER, WARDER',
);
const FAVOURS = new RegExp(
  String.raw` (?:DROP|KILL|SQUASH|CLOSE|BURY|STOP) (?:THE |DI |D |DIS |THIS |MY |HIS |HER )?` +
    String.raw`(?:CASE|MATTER|FILE|REPORT)| LET (?:HIM|HER|AM|US|ME|THEM|MY \w+) GO|` +
    String.raw` RELEASE (?:HIM|HER|AM|THEM|MY)| LOOK THE OTHER WAY| PASS (?:ME|HIM|HER|AM|US)|` +
    String.raw` (?:NO|NOT|DONT|DO NOT) (?:BOOK|ARREST|DETAIN|TOW|IMPOUND)| UNDER THE TABLE| OFF THE RECORD|` +
    String.raw` SETTLE (?:AM|DEM|THEM|HIM|HER|THE OGA)(?= )`,
);

/** Money passed through: washed, or a mule's cut kept and the rest sent on ("wash wash" is the black-money scam, a word of its own; a car wash is a wash). */
const LAUNDERING = new RegExp(
  ' (?<!CAR |BUS |MOTOR |BIKE |HAND |WASH )WASH (?:(?:THIS|DIS|THE|DA|D|MY|SOME|SUM|THESE|DEM) )?' +
    '(?:MONEY|FUNDS?|CASH|DOLLARS|USD|BTC|CRYPTO)(?= )|' +
    ' CLEAN (?:THIS|DIS|THESE|DEM) (?:MONEY|FUNDS?|CASH)| MONEY WASHING | MULE |' +
    ' (?:RENT|LEND|USE|BORROW) (?:ME )?(?:YOUR|UR|YA|HIS|HER) (?:ACCOUNT|ACCT|ACC|AC) ',
);
const CUT = new RegExp(
  String.raw`\b(?:KEEP|TAKE|REMOVE)\b[^%]{0,12}\d+ ?(?:%|PERCENT)|` +
    String.raw`\d+ ?(?:%|PERCENT)[^%]{0,10}\bFOR (?:YOU|U|YOURSELF)\b|` +
    String.raw`\bSEND (?:IT |AM |THE \w+ )?BACK \d+ ?(?:%|PERCENT)`,
);
const ONWARD = /\b(?:SEND|SENT|RETURN|FORWARD|TRANSFER|REMIT|PASS|BALANCE|REST)\b/;

/** The yahoo trade's words for a victim and a pick-up, with the scheme they work: "pick-up from the romance client". */
const TRADE = anyOf('CLIENT, CLIENTS, PICK UP, PICKUP, PICKER, FORMAT, MAGA, MUGU, BILLING, LOADING');
const SCHEMES = anyOf(
  'ROMANCE, DATING, MILITARY, ARMY, SOLDIER, GIFT CARD, GIFTCARD, ITUNES, STEAM CARD, HOOKUP, HOOK UP, OYINBO, INHERITANCE, WIRE',
);

/** Drugs by their measure: a slang name that is an everyday word alone ("loud", "Colorado") with "wraps" or "joints". */
const MEASURES = anyOf(
  'WRAP, WRAPS, RAP, RAPS, JOINT, JOINTS, ROLL, ROLLS, SACHET, SACHETS, PINCH, STICK, STICKS, GRAM, GRAMS, ZIP, ZIPS, OZ',
);
const DRUG_SLANG = anyOf('LOUD, COLORADO, ARIZONA, IGBO, GRASS, KUSH, SKUNK, MOLLY, GBANA, WEWE');

/** A carder's goods: stolen card data and logins sold by the piece. */
const CARDING = anyOf(
  'FULLZ, CC DUMPS, CARD DUMPS, CVV DUMPS, DUMPS WITH PIN, DUMPS AND PIN, CC FULLZ, CVV FULLZ, BANK LOGS, ' +
    'BANK LOG, PAYPAL LOGS, CASHAPP LOGS, SPAMMING TOOLS, SPAM TOOLS, CC SHOP',
);

export interface RiskShape {
  /** What the shape is, for the explanation. */
  shape: string;
  /** What the money buys or does, when the shape says it better than the narration's words: a racket's goods are a purchase, money passed on a transfer. */
  intent?: 'purchase' | 'transfer';
}

type Rule = { shape: string; intent?: RiskShape['intent']; test: (spaced: string, raw: string) => boolean };

const RULES: Rule[] = [
  {
    shape: 'a fee to release a larger sum (a prize, a loan, a parcel, funds, a job)',
    test: (s) => !OFFICIAL.test(s) && (FEE_BEFORE.test(s) || (GAINS.test(s) && RELEASING.test(s) && FEES.test(s))),
  },
  {
    shape: 'returns promised at a multiple or a rate',
    test: (s, raw) => {
      if (GUARANTEED.test(s)) return true;
      if (MULTIPLE.test(s) && STAKED.test(s)) return true;
      if (THRIFT.test(s)) return false;
      const rate = RATE.exec(raw);
      if (rate && !CHARGED.test(s)) {
        const days = (Number(rate[2] ?? 1) || 1) * (DAYS_IN.find(([unit]) => unit.test(rate[3]!))?.[1] ?? 30);
        // A savings plan's interest is a few percent a month; a scheme's is tens of percent in days.
        if ((Number(rate[1]) * 30) / days >= 10) return true;
      }
      const back = STAKE_BACK.exec(raw);
      return (
        back !== null &&
        amountOf(back[3]!, back[4]) >= 1.5 * amountOf(back[1]!, back[2]) &&
        amountOf(back[1]!, back[2]) > 0
      );
    },
  },
  { shape: 'secrecy', test: (s) => SECRECY.test(s) && !OCCASION.test(s) },
  { shape: 'urgency with a threat', test: (s) => THREAT.test(s) && URGENT.test(s) },
  {
    shape: 'paying for a result, a certificate or a place that cannot be bought',
    test: (s) =>
      (BUYING.test(s) && UNBUYABLE.test(s) && !LAWFUL_PURCHASE.test(s)) || (PLACES.test(s) && SERVICES.test(s)),
  },
  {
    shape: 'leaked exam papers',
    intent: 'purchase',
    test: (s) => LEAK.test(s) && EXAMS.test(s) && !EXHIBITION.test(s),
  },
  { shape: "payment for a person's release", test: (s) => PERSON_RELEASE.test(s) },
  { shape: 'an official paid to look away', test: (s) => OFFICIALS.test(s) && FAVOURS.test(s) },
  // A family errand passes money on too ("keep 10% for yourself, send the rest to mama"): a cut is a mule's only when no family is named.
  {
    shape: 'money washed or passed on for a cut',
    intent: 'transfer',
    test: (s, raw) =>
      LAUNDERING.test(s) ||
      (CUT.test(raw) &&
        ONWARD.test(raw) &&
        !s
          .trim()
          .split(' ')
          .some((w) => FAMILY_WORDS.has(w))),
  },
  { shape: "the yahoo trade's victim or pick-up, with its scheme", test: (s) => TRADE.test(s) && SCHEMES.test(s) },
  { shape: 'drugs by their measure', intent: 'purchase', test: (s) => MEASURES.test(s) && DRUG_SLANG.test(s) },
  { shape: "a carder's goods", intent: 'purchase', test: (s) => CARDING.test(s) },
];

/**
 * The shapes of fraud a narration has: `tokens` are its words (upper case), `raw` the narration in
 * upper case as written.
 * @example riskShapesIn(['PAY', 'FEE', 'TO', 'RELEASE', 'MY', 'PRIZE'], 'PAY FEE TO RELEASE MY PRIZE') // [{ shape: 'a fee to release …' }]
 */
export function riskShapesIn(tokens: string[], raw: string): RiskShape[] {
  const spaced = ` ${tokens.join(' ')} `;
  return RULES.filter((rule) => rule.test(spaced, raw)).map(({ shape, intent }) =>
    intent ? { shape, intent } : { shape },
  );
}

/** Medicines that are abused, sold lawfully on a prescription or at a pharmacy ("Tramadol 50mg on prescription, Medplus"). */
export const CONTROLLED_MEDICINES = new Set(['TRAMADOL', 'CODEINE', 'ROHYPNOL']);
const PRESCRIBED = anyOf(
  'PRESCRIPTION, PRESCRIBED, PHARMACY, PHARMACIST, CHEMIST, HOSPITAL, CLINIC, MEDPLUS, HEALTHPLUS, ALPHA PHARMACY, DOCTOR, DR',
);
const UNPRESCRIBED = anyOf(
  'NO PRESCRIPTION, WITHOUT PRESCRIPTION, WITHOUT A PRESCRIPTION, NO RX, CARTON, CARTONS, BULK',
);
export const isPrescribed = (tokens: string[]) => {
  const spaced = ` ${tokens.join(' ')} `;
  return PRESCRIBED.test(spaced) && !UNPRESCRIBED.test(spaced);
};

/**
 * A bank's refund of a fraudulent debit names the debit it undoes: "refund of fraudulent debit". Only
 * that wording: a "refund" with a scam's words may be the scam itself.
 */
const UNDONE_DEBIT =
  / FRAUDULENT (?:DEBIT|DEBITS|TRANSACTION|TRANSACTIONS|CHARGE|CHARGES|WITHDRAWAL|TRANSFER|DEDUCTION) /;
export const undoesFraudulentDebit = (tokens: string[]) => UNDONE_DEBIT.test(` ${tokens.join(' ')} `);
