import { stem, words } from './prompt.js';
import type { RiskShape } from './risk-shapes.js';

/**
 * Context before a risk flag: a risk word raises a flag only when the rest of the narration does not
 * explain it innocently. "ROI on my fixed deposit", "fraud awareness training", "weed killer",
 * "no be yahoo money" use a fraud word for what it is not. A careful reader looks at the words around
 * it; so does this, through a few contexts, each naming the words it may explain:
 *
 * - negation just before the word ("not for", "no be", "this is not"): any word but a denial a fraud
 *   itself makes ("not a scam", "no be 419") and a threat ("we will not expose you if you pay");
 * - a course, training or campaign about the word ("awareness", "seminar", "anti-"), in its clause:
 *   only the subjects a lawful course teaches (fraud, hacking, kidnapping, drugs, laundering, cults),
 *   never the trade's own words ("yahoo training" is the trade);
 * - a product the word is part of: a farm chemical beside "weed", a tool beside "pistol", security
 *   software against hackers, a financial product's "ROI";
 * - a payment plan for work or goods ("advance … balance after the job", "deposit for the job"): an
 *   "advance fee" and a fee paid before something is released, unless a windfall is what is released.
 *
 * Context never clears a strong shape: only the shapes named in `CLEARABLE_SHAPES` can be explained,
 * and while any other shape is found (a threat, a mule's cut, money washed, a person's release, and
 * every shape added later) nothing is cleared at all, word or shape.
 */

const list = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
const set = (text: string) => new Set(list(text));

/** Words that say "this is not": pidgin "no be", "non-", "isn't". */
const NEGATORS = set('NOT, NO, NEVER, NON, ISNT, AINT, WASNT, NOTHING');
/** Words that may sit between a negator and what it negates: "not for", "no be", "not a", "nothing to do with". */
const NEGATION_GLUE = set(
  'FOR, A, AN, BE, THE, ABOUT, FROM, ANY, RELATED, TO, DO, WITH, PART, OF, SOME, E, IS, MY, OUR',
);
/** What a fraud says of itself to be trusted: its denial is no comfort. */
const DENIALS = set(
  'SCAM, SCAMMER, SCAMMED, FRAUD, FRAUDULENT, FRAUDSTER, 419 SCAM, 419 FRAUD, 419 MONEY, 419ER, PONZI, MMM, ' +
    'PYRAMID SCHEME, FAKE ALERT, FAKE CREDIT ALERT, FAKE CREDIT, FAKE TRANSFER, FAKE PAYMENT, FAKE RECEIPT, ' +
    'FAKE BANK ALERT, COUNTERFEIT, STOLEN',
);
/** Explicit threats: no context explains them. */
const THREATS = set('WE WILL EXPOSE, EXPOSE YOU, YOUR CONTACTS, LOAN DEFAULTER, DEBT SHAMING, DEFAMATION MESSAGE');

/** A course, training or campaign: what it is about is taught, not done. */
const EDUCATION = set(
  'AWARENESS, TRAINING, TRAININGS, SEMINAR, SEMINARS, WORKSHOP, WORKSHOPS, COURSE, COURSES, CLASS, CLASSES, LECTURE, ' +
    'LECTURES, SENSITISATION, SENSITIZATION, ENLIGHTENMENT, CAMPAIGN, CONFERENCE, WEBINAR, BOOTCAMP, SYMPOSIUM, ' +
    'TUTORIAL, MODULE, CERTIFICATION, CURRICULUM, TEXTBOOK, HANDBOOK, BOOK, DOCUMENTARY, OUTREACH, ANTI, ' +
    'PREVENTION, COMPLIANCE, DETECTION',
);
/** The subjects a lawful course teaches: a risk word is explained by a course only when it is one of these. */
const SUBJECTS = set(
  'FRAUD, FRAUDULENT, FRAUDSTER, FRAUDSTERS, SCAM, SCAMS, SCAMMER, SCAMMERS, PHISHING, HACK, HACKED, HACKER, HACKERS, ' +
    'HACKING, SWAP, IMPERSONATION, KIDNAP, KIDNAPPING, KIDNAPPERS, KIDNAPPER, KIDNAPPED, ABDUCTION, HOSTAGE, BANDITRY, ' +
    'TRAFFICKING, TRAFFICKER, TRAFFICKERS, LAUNDER, LAUNDERING, BRIBE, BRIBERY, KICKBACK, KICKBACKS, PONZI, PYRAMID, ' +
    'COCAINE, HEROIN, CANNABIS, MARIJUANA, TRAMADOL, CODEINE, METH, CULT, CULTISM, CULTIST, CULTISTS, TERRORISM, ' +
    'TERRORIST, TERRORISTS, INSURGENCY, COUNTERFEIT, RITUAL, RITUALS, BUNKERING, VANDALISM',
);
/** Words that may sit between a subject and its course: "drug abuse awareness", "seminar on kidnapping and insecurity". */
const EDUCATION_GLUE = new Set([
  ...SUBJECTS,
  ...list(
    'AND, ON, ABOUT, AGAINST, IN, OF, FOR, TO, THE, A, AN, HOW, AVOID, PREVENT, COMBAT, STOP, SPOT, DETECT, ' +
      'REPORT, ABUSE, RISK, RISKS, CONTROL, SECURITY, CYBER, CORRUPTION, INSECURITY, MISUSE, FEE, FEES, REGISTRATION',
  ),
]);

/** Products a risk word is part of, each with the words that name the product and the scope they must share with it. */
const PRODUCTS: { terms: Set<string>; words: string[]; scope: 'clause' | 'narration'; what: string }[] = [
  {
    terms: set('WEED'),
    words: list(
      'KILLER, KILLERS, HERBICIDE, HERBICIDES, PESTICIDE, PESTICIDES, INSECTICIDE, INSECTICIDES, FERTILIZER, ' +
        'FERTILIZERS, FERTILISER, FERTILISERS, GLYPHOSATE, PARAQUAT, GRAMOXONE, ATRAZINE, ROUNDUP, AGROCHEMICAL, ' +
        'AGROCHEMICALS, AGRO, CONTROL, SPRAY, SPRAYER, SPRAYING, WACKER, EATER, TRIMMER, WEEDING, FARM, GARDEN, LAWN',
    ),
    scope: 'clause',
    what: 'a farm chemical or tool, not a drug',
  },
  {
    terms: set('PISTOL'),
    words: list('GRIP, NOZZLE, SPRAY, DRILL, HOSE, GLUE, PAINT, AIR BLOW, BLOW, NAIL, STAPLE, HEAT'),
    scope: 'clause',
    what: "a tool's part, not a gun",
  },
  {
    terms: set('HACK, HACKED, HACKER, PHISHING'),
    words: list(
      'ANTIVIRUS, ANTI VIRUS, FIREWALL, CYBERSECURITY, CYBER SECURITY, PENETRATION TEST, PENTEST, SECURITY SOFTWARE, ' +
        'SECURITY AUDIT, PASSWORD MANAGER, ENDPOINT PROTECTION, KASPERSKY, NORTON, MCAFEE, AVAST, ESET, BITDEFENDER',
    ),
    scope: 'narration',
    what: 'security that keeps it out, not the act',
  },
  {
    terms: set('ROI'),
    words: list(
      'FIXED DEPOSIT, SAVINGS, SAVINGS ACCOUNT, TREASURY BILL, TREASURY BILLS, T BILL, T BILLS, TBILL, TBILLS, ' +
        'MUTUAL FUND, MUTUAL FUNDS, DIVIDEND, DIVIDENDS, INTEREST ON, FGN BOND, FGN BONDS, BOND, BONDS, EUROBOND, ' +
        'MONEY MARKET, COMMERCIAL PAPER, PENSION, RSA, STOCK, STOCKS, EQUITIES, ANNUITY, COUPON',
    ),
    scope: 'narration',
    what: "a financial product's return, not a scheme's",
  },
];

/** A balance due once work is done or goods arrive: the rest of a price, not a windfall. */
const BALANCE_AFTER = new RegExp(
  String.raw` (?:BALANCE|BAL|REMAINING|REMAINDER|REST|OUTSTANDING)(?: \w+){0,3} (?:AFTER|ON|UPON|WHEN|AT|BY)` +
    String.raw`(?: \w+){0,2} (?:DELIVERY|DELIVERED|COMPLETION|COMPLETE|COMPLETED|FINISH|FINISHED|FINISHING|JOB|WORK|` +
    String.raw`INSTALLATION|INSTALLED|SUPPLY|SUPPLIED|HANDOVER|DONE|INSPECTION|ARRIVAL|PICKUP|COLLECTION) `,
);
/** An advance or a deposit for work or goods: "deposit for the job", "advance for the carpenter". */
const WORK = `(?:${list(
  'JOB, WORK, WORKS, CONTRACT, ORDER, GOODS, MATERIALS, MATERIAL, SUPPLY, PROJECT, PLUMBER, CARPENTER, ELECTRICIAN, ' +
    'MECHANIC, TAILOR, WELDER, PAINTER, BRICKLAYER, MASON, TILER, VULCANIZER, CONTRACTOR, BUILDER, FURNITURE, ' +
    'WARDROBE, ROOFING, TILING, PLUMBING, WIRING, SEWING, REPAIR, REPAIRS, RENOVATION',
).join('|')})`;
const ADVANCE_FOR = new RegExp(
  String.raw` (?:ADVANCE|DEPOSIT|MOBILISATION|MOBILIZATION|PART PAYMENT|DOWN PAYMENT|UPFRONT)(?: \w+){0,2} (?:FOR|TO|OF) ` +
    String.raw`(?:(?:THE|MY|OUR|YOUR|DI|D|THIS|DIS) )?(?:\w+ )?${WORK} `,
);
/** What a fee-before scam promises to release: while one is named, a payment plan explains nothing. */
const WINDFALLS = new RegExp(
  ' (?:PRIZE|PRIZES|WINNINGS|WINNING|REWARD|REWARDS|GRANT|GRANTS|INHERITANCE|COMPENSATION|LOTTERY|JACKPOT|AWARD|' +
    'CASHBACK|AIRDROP|BONUS|LOAN|FUNDS|FUND|PAYOUT|PARCEL|PACKAGE|CONSIGNMENT|BOX|ATM CARD|EMPLOYMENT|RECRUITMENT|' +
    'APPOINTMENT|PLACEMENT|SLOT|VISA|PALLIATIVE|EMPOWERMENT|GIVEAWAY|PROFIT|PROFITS)' +
    '(?= )| GET (?:THE|YOU THE|YOUR|MY|A) JOB(?! STARTED| DONE| FINISHED)',
);
const PLAN_TERMS = set('ADVANCE FEE');
/** Only this shape can be explained, by a payment plan; every other shape, now and later, is never cleared. */
export const CLEARABLE_SHAPES = new Set(['a fee to release a larger sum (a prize, a loan, a parcel, funds, a job)']);

/** How many words a context word may stand from the risk word, every one of them glue. */
const REACH = 8;

/** The narration's clauses, each as its words (upper case): a comma, a full stop or a semicolon ends one. */
function clausesOf(text: string): string[][] {
  return text
    .split(/[,;.!?\n]+/)
    .map((clause) => words(clause))
    .filter(Boolean)
    .map((clause) => clause.split(' '));
}

/** Where a term (a word or a phrase) starts and ends in a clause, as written or as stems. */
function placesOf(term: string, clause: string[]): [number, number][] {
  const split = term.split(' ');
  const places: [number, number][] = [];
  for (let i = 0; i + split.length <= clause.length; i++) {
    if (split.every((w, k) => clause[i + k] === w || stem(clause[i + k]!) === w || stem(clause[i + k]!) === stem(w)))
      places.push([i, i + split.length]);
  }
  return places;
}

/** Where the first word of `wanted` stands, reached from a place stepping over `glue` only, at most `reach` words away. */
function reached(clause: string[], from: number, step: 1 | -1, wanted: Set<string>, glue: Set<string>, reach: number) {
  for (let i = from, steps = 0; i >= 0 && i < clause.length && steps < reach; i += step, steps++) {
    const word = clause[i]!;
    if (wanted.has(word) || wanted.has(stem(word))) return i;
    if (!glue.has(word)) return undefined;
  }
  return undefined;
}

const spacedOf = (tokens: string[]) => ` ${tokens.join(' ')} `;
const phraseIn = (spaced: string, phrase: string) => spaced.includes(` ${phrase} `);
const lower = (s: string) => s.toLowerCase();

/**
 * Why the rest of the narration explains a risk word innocently, or undefined when it does not.
 * Every place the word stands must be explained.
 * @example innocentReading('ROI', 'ROI ON MY FIXED DEPOSIT') // '"roi" with "fixed deposit": a financial product…'
 */
export function innocentReading(term: string, text: string): string | undefined {
  if (THREATS.has(term)) return undefined;
  const clauses = clausesOf(text);
  const spaced = spacedOf(clauses.flat());
  const places = clauses.flatMap((clause) => placesOf(term, clause).map((place) => ({ clause, place })));
  if (places.length === 0) return undefined;
  const every = (reason: (clause: string[], start: number, end: number) => string | undefined) => {
    const reasons = places.map(({ clause, place: [start, end] }) => reason(clause, start, end));
    return reasons.every(Boolean) ? reasons[0] : undefined;
  };

  const quoted = (clause: string[], from: number, to: number) => `"${lower(clause.slice(from, to).join(' '))}"`;
  if (!DENIALS.has(term)) {
    const negated = every((clause, start, end) => {
      const at = reached(clause, start - 1, -1, NEGATORS, NEGATION_GLUE, 4);
      return at === undefined ? undefined : `${quoted(clause, at, end)}: negated, what the money is not`;
    });
    if (negated) return negated;
  }
  if (term.split(' ').some((w) => SUBJECTS.has(w))) {
    const taught = every((clause, start, end) => {
      const after = reached(clause, end, 1, EDUCATION, EDUCATION_GLUE, REACH);
      if (after !== undefined) return `${quoted(clause, start, after + 1)}: a course or campaign about it, not the act`;
      const before = reached(clause, start - 1, -1, EDUCATION, EDUCATION_GLUE, REACH);
      return before === undefined
        ? undefined
        : `${quoted(clause, before, end)}: a course or campaign about it, not the act`;
    });
    if (taught) return taught;
  }
  for (const product of PRODUCTS) {
    if (!product.terms.has(term)) continue;
    const named = every((clause) => {
      const scope = product.scope === 'clause' ? spacedOf(clause) : spaced;
      const word = product.words.find((w) => phraseIn(scope, w));
      return word && `"${lower(term)}" with "${lower(word)}": ${product.what}`;
    });
    if (named) return named;
  }
  if (PLAN_TERMS.has(term)) return paymentPlan(spaced, `"${lower(term)}"`);
  return undefined;
}

/** A payment plan for work or goods, when no windfall is named: why, or undefined. */
function paymentPlan(spaced: string, what: string): string | undefined {
  if (WINDFALLS.test(spaced)) return undefined;
  const plan = BALANCE_AFTER.exec(spaced) ?? ADVANCE_FOR.exec(spaced);
  return plan
    ? `${what} with "${lower(plan[0].trim())}": a payment plan for work or goods, not a fee for a windfall`
    : undefined;
}

/**
 * The risk words and shapes a narration's context leaves standing, and the lines that say what it
 * explained. Nothing is explained while a shape outside `CLEARABLE_SHAPES` is found.
 */
export function inContext(
  terms: string[],
  shapes: RiskShape[],
  text: string,
): { terms: string[]; shapes: RiskShape[]; lines: string[] } {
  if ((terms.length === 0 && shapes.length === 0) || shapes.some((s) => !CLEARABLE_SHAPES.has(s.shape)))
    return { terms, shapes, lines: [] };
  const lines: string[] = [];
  const keptTerms = terms.filter((term) => {
    const why = innocentReading(term, text);
    return !(why && lines.push(why));
  });
  const spaced = spacedOf(clausesOf(text).flat());
  const keptShapes = shapes.filter((shape) => {
    const why = paymentPlan(spaced, shape.shape.split(' (')[0]!);
    return !(why && lines.push(why));
  });
  return { terms: keptTerms, shapes: keptShapes, lines };
}
