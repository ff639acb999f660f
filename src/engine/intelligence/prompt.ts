import { INTENTS, TOPICS } from './lexicon.js';

// The verbs in any form: "should be rejected", "everything else gets flagged", "hold them".
// A clause that starts "no" ("No betting money", "no loans") refuses what it names.
const REJECT_VERBS = String.raw`reject(?:s|ed|ing)?|refus(?:e|es|ed|ing)|block(?:s|ed|ing)?|declin(?:e|es|ed|ing)|(?:do not|don't|never|no) (?:accept|credit|take|collect|gree)|not (?:be )?(?:allowed|accepted|permitted|credited)|disallow(?:s|ed)?|prohibited|forbidden|banned`;
const REJECT = new RegExp(String.raw`\b(${REJECT_VERBS})\b|^no\b(?! (?:need|problem|worries|wahala|limit|issue)\b)`);
const REVIEW_VERBS = String.raw`review(?:s|ed|ing)?|flag(?:s|ged|ging)?|check(?:s|ed|ing)?|verif(?:y|ies|ied)|hold(?:s|ing)?|held|manual(?:ly)?|suspicious|investigat(?:e|es|ed|ing)|confirm(?:s|ed|ing)?|query|queried|escalat(?:e|ed)|approv(?:e|al)|(?:alert|notify|tell|inform|call) me|let me know`;
const REVIEW = new RegExp(String.raw`\b(${REVIEW_VERBS})\b`);
const NO_NEED = /\b(?:no need to|(?:do not|don't|does not|doesn't) need to|needn't|not necessary to)\b/;
const LIMIT = /\b(?:above|over|more than|greater than|bigger than|larger than|higher than|in excess of|exceeding|exceeds?|pass|passes|wey pass)\s*(?:₦|#|ngn|n)?\s*([\d,]+(?:\.\d+)?)\s*(k|m|thousand|million)?\s*(naira|kobo)?/;
const STOPWORDS = new Set(['THIS', 'THAT', 'WALLET', 'ACCOUNT', 'PAYMENT', 'EXPECT', 'RECEIVE', 'ONLY', 'FROM', 'WITH', 'WILL', 'SHOULD', 'THEY', 'THEM', 'THEIR', 'THESE', 'MONEY', 'FUND', 'TRANSFER', 'MOSTLY', 'USUALLY', 'ALWAYS', 'CREDIT', 'INBOUND', 'INCOMING', 'USER', 'CUSTOMER', 'ABOUT', 'ANYTHING', 'ELSE', 'EVERYTHING', 'FINE', 'OTHER', 'THAN', 'ABOVE', 'BELOW', 'OVER', 'NAIRA', 'KOBO', 'REJECT', 'REFUSE', 'BLOCK', 'DECLINE', 'ACCEPT', 'NEVER', 'ALLOWED', 'DISALLOW', 'REVIEW', 'FLAG', 'CHECK', 'VERIFY', 'HOLD', 'MANUAL', 'MANUALLY', 'SUSPICIOUS', 'INVESTIGATE', 'CONFIRM', 'MORE', 'GREATER', 'EXCEEDING', 'EXCEED', 'MILLION', 'THOUSAND', 'MENTION', 'MENTIONING', 'SAYS', 'PLEASE', 'INTO', 'PAYS', 'PASS', 'PASSES', 'ABEG', 'NIKAN', 'KAWAI', 'NAANI', 'THEM', 'THOSE', 'SUCH', 'FIRST', 'EVERY', 'EACH', 'SINGLE',
  // The forms of the verbs, and the nouns that say only "a payment": "any other kind of transaction should be reviewed".
  'REJECTED', 'REJECTING', 'REFUSED', 'BLOCKED', 'DECLINED', 'REVIEWED', 'FLAGGED', 'CHECKED', 'VERIFIED', 'HELD', 'HOLDING', 'INVESTIGATED', 'CONFIRMED', 'QUERY', 'QUERIED', 'ESCALATE', 'ESCALATED',
  'KIND', 'KINDS', 'TYPE', 'TYPES', 'SORT', 'SORTS', 'REST', 'TRANSACTION', 'TRANSACTIONS', 'DEPOSIT', 'DEPOSITS', 'INFLOW', 'INFLOWS', 'ACCEPTED', 'BIGGER', 'LARGER', 'HIGHER', 'EXCESS', 'EXCEEDS', 'SENT', 'RECEIVED', 'COMING', 'COMES',
  'CREDITED', 'PERMITTED', 'PROHIBITED', 'FORBIDDEN', 'BANNED', 'APPROVE', 'APPROVAL', 'ALERT', 'NOTIFY', 'TELL', 'INFORM', 'KNOW', 'LEAST', 'UPWARDS', 'UPWARD', 'BEYOND', 'MINIMUM']);

/** Hausa's hooked letters, which Unicode does not decompose into a letter and a mark. */
const HOOKED: Record<string, string> = { Ɗ: 'D', ɗ: 'D', Ƙ: 'K', ƙ: 'K', Ƴ: 'Y', ƴ: 'Y', Ɓ: 'B', ɓ: 'B' };

/**
 * A text's words in upper case, with the tone marks and dots of Yoruba, Igbo and Hausa spelling
 * dropped ("ọgwụ" is OGWU, "ƙungiya" KUNGIYA) and apostrophes inside words closed up ("sa'adatu",
 * "mother's day"), so a word matches however it was typed.
 */
export function words(text: string): string {
  const folded = /[^\x00-\x7f]/.test(text) ? text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[ƊɗƘƙƳƴƁɓ]/g, (c) => HOOKED[c]!) : text;
  const upper = folded.toUpperCase();
  return (/['’ʼ`]/.test(upper) ? upper.replace(/(?<=[A-Z])['’ʼ`](?=[A-Z])/g, '') : upper).replace(/[^A-Z0-9]+/g, ' ').trim();
}

/** Plural and simple inflections folded, so "loans" in a prompt meets "loan" in a narration. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('IES')) return `${word.slice(0, -3)}Y`;
  if (word.length > 4 && word.endsWith('S') && !word.endsWith('SS')) return word.slice(0, -1);
  return word;
}

/** A text's tokens as written and as stems, for matching words and phrases either way. */
export interface Text {
  tokens: Set<string>;
  spaced: string;
}

export function textOf(tokens: string[]): Text {
  const stems = tokens.map(stem);
  return { tokens: new Set([...tokens, ...stems]), spaced: ` ${tokens.join(' ')} | ${stems.join(' ')} ` };
}

const padded = new Map<string, string>();

/** Whether the text holds a word (a set lookup) or a phrase (on word boundaries). */
export function mentions(text: Text, term: string): boolean {
  if (!term.includes(' ')) return text.tokens.has(term);
  let phrase = padded.get(term);
  if (phrase === undefined) padded.set(term, (phrase = ` ${term} `));
  return text.spaced.includes(phrase);
}

export interface Clause {
  polarity: 'expect' | 'review' | 'reject';
  intents: Set<string>;
  only: boolean;
  /** "Reject anything that is not rent": the clause is about every stated purpose but its own. */
  except: boolean;
  /** The clause's own words (stems), with every word of a topic it names. */
  words: string[];
  /** A limit on amounts, when the clause names one (see `limitOf`). */
  limit?: Limit;
}

/**
 * Amounts above `aboveKobo` hold (an integer of kobo: "₦1m and above" is above 99,999,999); `amounts`
 * says which as the prompt wrote it, for the explanation ("amounts of 100000000 kobo and above").
 */
interface Limit {
  aboveKobo: number;
  amounts: string;
}

/** An amount and then its comparison, which counts the amount itself: "₦1m and above", "500k or more", "from ₦2m upwards". */
const AT_LEAST = /(?:\bat least|\bfrom|\bof)?\s*(?:₦|#|ngn|\bn)?\s*([\d,]+(?:\.\d+)?)\s*(k|m|thousand|million)?\s*(naira|kobo)?\s*(?:and above|or above|and more|or more|upwards|and upward|and beyond)\b/;
const AT_LEAST_BEFORE = /\b(?:at least|not less than|no less than|minimum of)\s*(?:₦|#|ngn|n)?\s*([\d,]+(?:\.\d+)?)\s*(k|m|thousand|million)?\s*(naira|kobo)?/;

/** Amounts in words ("one million", "fifty thousand", "half a million") as digits, for the limits. */
const NUMBER_WORDS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100, 'two hundred': 200, 'five hundred': 500 };
const IN_WORDS = /\b(half a|(?:two |five )?hundred|a|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty) (thousand|million)\b/g;
const inDigits = (clause: string) => clause.replace(IN_WORDS, (_, n: string, scale: string) => (n === 'half a' ? `${scale === 'million' ? 500 : 0.5} ${scale === 'million' ? 'thousand' : scale}` : `${NUMBER_WORDS[n]} ${scale}`));

/** The amount in kobo above which a clause holds payments: "above ₦2m" is 200000000; "₦2m and above" counts ₦2m itself. */
function limitOf(written: string): Limit | undefined {
  const clause = /thousand|million/.test(written) ? inDigits(written) : written;
  const limit = LIMIT.exec(clause);
  const atLeast = limit ? undefined : (AT_LEAST.exec(clause) ?? AT_LEAST_BEFORE.exec(clause));
  const found = limit ?? atLeast;
  if (!found) return undefined;
  const scale = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6 }[found[2] as 'k'] ?? 1;
  const value = Number(found[1]!.replace(/,/g, '')) * scale;
  const kobo = Math.round(found[3] === 'kobo' ? value : value * 100);
  return atLeast ? { aboveKobo: kobo - 1, amounts: `amounts of ${kobo} kobo and above` } : { aboveKobo: kobo, amounts: `amounts above ${kobo} kobo` };
}

/** "Only" in English, Yoruba ("nikan"), Hausa ("kawai") and Igbo ("naanị"), tone marks folded. */
const ONLY = / (?:ONLY|NIKAN|KAWAI|NAANI) /;
const EXCEPT = /\b(?:not|except|other than|apart from|besides)\b/;
/** "Anything else", "every other payment": what the clause before did not name. */
const ELSE = /\b(?:else|other|others|rest)\b/;
/**
 * "School fees only, review the rest": a comma before a verb of review or rejection of "the rest" (or
 * "anything else", "any other") starts a clause of its own. "Any money wey na loan, hold am" stays one.
 */
const VERB_AFTER_COMMA = new RegExp(`,\\s*(?=(?:and\\s+|then\\s+|please\\s+|pls\\s+)?(?:${REJECT_VERBS}|${REVIEW_VERBS}|anything|everything|any|all|no|other)\\b[^,]*\\b(?:else|other|others|rest)\\b)`);

/**
 * Reads a system prompt clause by clause: what it expects, what it wants reviewed or rejected. A
 * clause that says only "review them" or "hold am" after one that names a limit ("Amounts above ₦100k
 * are unusual; review them") reviews the amounts above that limit.
 */
export function readPrompt(prompt: string): Clause[] {
  let clauses = READ.get(prompt);
  if (clauses === undefined) {
    if (READ.size >= 1000) READ.clear();
    READ.set(prompt, (clauses = readClauses(prompt)));
  }
  return clauses;
}

/** Prompts read already: a wallet's prompt is read for every payment into it, and never changes. */
const READ = new Map<string, Clause[]>();

/** What names each intent in a prompt: its label, its name, and its strong terms (weight 3 or more). */
const NAMED_BY = INTENTS.map((i) => ({ intent: i.intent, names: [words(i.label), words(i.intent.replace(/_/g, ' ')), ...i.terms.filter(([, weight]) => weight >= 3).map(([term]) => term)] }));

function readClauses(prompt: string): Clause[] {
  const raw = prompt
    .toLowerCase()
    .split(/[.;!?\n]+|\bbut\b/)
    .flatMap((clause) => clause.split(VERB_AFTER_COMMA))
    .map((clause) => clause.trim())
    .filter(Boolean);
  const clauses = raw.map((clause): Clause => {
      const tokens = words(clause).split(' ');
      const text = textOf(tokens);
      const intents = new Set(NAMED_BY.filter(({ names }) => names.some((term) => mentions(text, term))).map(({ intent }) => intent));
      const own = tokens.filter((w) => !STOPWORDS.has(w)).map(stem).filter((w) => w.length >= 4 && !STOPWORDS.has(w) && !/^\d+$/.test(w));
      // A topic is named by any of its words, short ones too ("no bet money", "reject BTC").
      const topics = TOPICS.filter((topic) => topic.some((w) => text.tokens.has(w) || text.tokens.has(stem(w)))).flat().map(stem);
      const limit = limitOf(clause);
      // "No need to review salaries" asks for nothing.
      const polarity: Clause['polarity'] = NO_NEED.test(clause) ? 'expect' : REJECT.test(clause) ? 'reject' : REVIEW.test(clause) ? 'review' : 'expect';
      // The "not" of "do not accept" is the verb's: only a "not" after the verb makes an exception.
      const except = polarity !== 'expect' && intents.size > 0 && EXCEPT.test(clause.replace(polarity === 'reject' ? REJECT : REVIEW, ' '));
      return { polarity, intents, only: ONLY.test(` ${tokens.join(' ')} `), except, words: [...new Set([...own, ...topics])], ...(limit ? { limit } : {}) };
    });
  clauses.forEach((clause, i) => {
    const before = clauses[i - 1];
    const bare = clause.polarity !== 'expect' && clause.limit === undefined && clause.intents.size === 0 && clause.words.length === 0;
    if (bare && before?.limit !== undefined) clause.limit = before.limit;
    // "Only salaries from Zenith. Review anything else": everything but what the clauses before expect
    // only, or, with no "only", expect at all ("Accept rent from tenants, no other payments").
    const expected = clauses.slice(0, i).filter((c) => c.polarity === 'expect' && c.intents.size > 0);
    const only = expected.some((c) => c.only) ? expected.filter((c) => c.only) : expected;
    if (bare && clause.limit === undefined && ELSE.test(raw[i]!) && only.length > 0) {
      only.forEach((c) => c.intents.forEach((intent) => clause.intents.add(intent)));
      clause.except = true;
    }
  });
  return clauses;
}

/** The flag a review or reject clause raises. */
export const promptFlag = (polarity: Clause['polarity']) => (polarity === 'reject' ? 'REJECTED_BY_PROMPT' : 'REVIEW_REQUESTED_BY_PROMPT');

const STATED = new Set(INTENTS.map((i) => i.intent));

/**
 * Flags for clauses that review or reject amounts above a limit ("review any payment above ₦2m"). A
 * clause that names a purpose limits that purpose only: "reject single contributions over ₦50,000"
 * holds a ₦60,000 contribution, not a ₦10,000 one, nor a ₦60,000 salary. A payment above the limit
 * that states no purpose (a name, "payment") may be one: it is held too. The amount is the payment's:
 * an amount written in the narration ("N720,000") is what the sender typed, not what moved.
 */
export function amountLimits(clauses: Clause[], amount: number, intent: string): { flag: string; line: string }[] {
  return clauses
    .filter((clause) => clause.polarity !== 'expect' && clause.limit !== undefined && amount > clause.limit.aboveKobo && (clause.intents.size === 0 || clause.intents.has(intent) || !STATED.has(intent)))
    .map((clause) => {
      const flag = promptFlag(clause.polarity);
      return { flag, line: `system prompt says to ${clause.polarity} ${clause.limit!.amounts}: ${flag}` };
    });
}
