import { AMOUNT, amountsInDigits, isMoney, koboFrom } from './instructions/amounts.js';
import { INTENTS, TOPICS } from './lexicon.js';

// The verbs in any form: "should be rejected", "everything else gets flagged", "hold them".
// A clause that starts "no" ("No betting money", "no loans") refuses what it names.
const REJECT_VERBS =
  String.raw`reject(?:s|ed|ing)?|refus(?:e|es|ed|ing)|block(?:s|ed|ing)?|declin(?:e|es|ed|ing)|` +
  String.raw`(?:do not|don't|dont|never|no|not|cannot|can't)` +
  String.raw` (?:accept|credit|take|collect|gree|allow|receive|process|want)|` +
  String.raw`not (?:be )?(?:allowed|accepted|permitted|credited|received)|send (?:it |them |am )?back|` +
  String.raw`return to sender|bounce(?:d)?|disallow(?:s|ed)?|prohibited|forbidden|banned`;
const REJECT = new RegExp(String.raw`\b(${REJECT_VERBS})\b|^no\b(?! (?:need|problem|worries|wahala|limit|issue)\b)`);
const REVIEW_VERBS =
  String.raw`review(?:s|ed|ing)?|flag(?:s|ged|ging)?|check(?:s|ed|ing)?|verif(?:y|ies|ied)|hold(?:s|ing)?|held|` +
  String.raw`manual(?:ly)?|suspicious|investigat(?:e|es|ed|ing)|confirm(?:s|ed|ing)?|query|queried|` +
  String.raw`escalat(?:e|ed)|approv(?:e|al)|(?:alert|notify|tell|inform|call) me|let me know|` +
  String.raw`wait(?:s|ing)? for|pending|on hold|aside|quarantin(?:e|ed)|look (?:at|into)|` +
  String.raw`see (?:am|it|them) first|(?:in|into|to) suspense|suspend(?:ed)?|` +
  // Hausa: "ka riƙe" (hold), "a duba shi" (check it).
  String.raw`rike|duba`;
const REVIEW = new RegExp(String.raw`\b(${REVIEW_VERBS})\b`);
/** "No need to review salaries", "never hold salaries", "don't flag gifts": a verb of review negated asks for nothing. */
const NO_NEED = new RegExp(
  String.raw`\b(?:no need to|(?:do not|don't|dont|does not|doesn't) need to|needn't|not necessary to|` +
    String.raw`(?:never|do not|don't|dont|no) (?:hold|flag|review|check|query|verify|question))\b`,
);
const LIMIT = new RegExp(
  String.raw`\b(?:above|over|more than|greater than|bigger than|larger than|higher than|in excess of|exceeding|` +
    String.raw`exceeds?|pass|passes|wey pass|beyond|past)\s*(?:(?:the|a|our|my|limit|cap|sum|amount|of)\s+)*${AMOUNT}`,
);
const STOPWORDS = new Set([
  'THIS',
  'THAT',
  'WALLET',
  'ACCOUNT',
  'PAYMENT',
  'EXPECT',
  'RECEIVE',
  'ONLY',
  'FROM',
  'WITH',
  'WILL',
  'SHOULD',
  'THEY',
  'THEM',
  'THEIR',
  'THESE',
  'MONEY',
  'FUND',
  'TRANSFER',
  'MOSTLY',
  'USUALLY',
  'ALWAYS',
  'CREDIT',
  'INBOUND',
  'INCOMING',
  'USER',
  'CUSTOMER',
  'ABOUT',
  'ANYTHING',
  'ELSE',
  'EVERYTHING',
  'FINE',
  'OTHER',
  'THAN',
  'ABOVE',
  'BELOW',
  'OVER',
  'NAIRA',
  'KOBO',
  'REJECT',
  'REFUSE',
  'BLOCK',
  'DECLINE',
  'ACCEPT',
  'NEVER',
  'ALLOWED',
  'DISALLOW',
  'REVIEW',
  'FLAG',
  'CHECK',
  'VERIFY',
  'HOLD',
  'MANUAL',
  'MANUALLY',
  'SUSPICIOUS',
  'INVESTIGATE',
  'CONFIRM',
  'MORE',
  'GREATER',
  'EXCEEDING',
  'EXCEED',
  'MILLION',
  'THOUSAND',
  'MENTION',
  'MENTIONING',
  'SAYS',
  'PLEASE',
  'INTO',
  'PAYS',
  'PASS',
  'PASSES',
  'ABEG',
  'NIKAN',
  'KAWAI',
  'NAANI',
  'THEM',
  'THOSE',
  'SUCH',
  'FIRST',
  'EVERY',
  'EACH',
  'SINGLE',
  // The forms of the verbs, and the nouns that say only "a payment": "any other kind of transaction should be reviewed".
  'REJECTED',
  'REJECTING',
  'REFUSED',
  'BLOCKED',
  'DECLINED',
  'REVIEWED',
  'FLAGGED',
  'CHECKED',
  'VERIFIED',
  'HELD',
  'HOLDING',
  'INVESTIGATED',
  'CONFIRMED',
  'QUERY',
  'QUERIED',
  'ESCALATE',
  'ESCALATED',
  'KIND',
  'KINDS',
  'TYPE',
  'TYPES',
  'SORT',
  'SORTS',
  'REST',
  'TRANSACTION',
  'TRANSACTIONS',
  'DEPOSIT',
  'DEPOSITS',
  'INFLOW',
  'INFLOWS',
  'ACCEPTED',
  'BIGGER',
  'LARGER',
  'HIGHER',
  'EXCESS',
  'EXCEEDS',
  'SENT',
  'RECEIVED',
  'COMING',
  'COMES',
  'CREDITED',
  'PERMITTED',
  'PROHIBITED',
  'FORBIDDEN',
  'BANNED',
  'APPROVE',
  'APPROVAL',
  'ALERT',
  'NOTIFY',
  'TELL',
  'INFORM',
  'KNOW',
  'LEAST',
  'UPWARDS',
  'UPWARD',
  'BEYOND',
  'MINIMUM',
  // Verbs that route a payment somewhere ("everything else goes to review", "put the rest aside"), pidgin ("hold am
  // make we check", "any oda money"), limits, and who pays.
  'GOES',
  'GOING',
  'SEND',
  'PUT',
  'MOVE',
  'MOVED',
  'ROUTE',
  'ROUTED',
  'KEEP',
  'KEPT',
  'LEAVE',
  'MAKE',
  'SHALL',
  'MUST',
  'NEED',
  'NEEDS',
  'WAIT',
  'WAITS',
  'WAITING',
  'PENDING',
  'ASIDE',
  'TREAT',
  'TREATED',
  'MARK',
  'MARKED',
  'QUEUE',
  'ALLOW',
  'ALLOWS',
  'RECEIVE',
  'PROCESS',
  'WANT',
  'BACK',
  'BOUNCE',
  'BOUNCED',
  'LOOK',
  'SABI',
  'WETIN',
  'ANODA',
  'ODER',
  'OTHERS',
  'NOTHING',
  'MAXIMUM',
  'UPTO',
  'UNDER',
  'LESS',
  'LOWER',
  'SMALLER',
  'MOST',
  'LIMIT',
  'SENDER',
  'SENDERS',
  'PERSON',
  'PEOPLE',
  'ANYONE',
  'ANYBODY',
  'SOMEONE',
  'NOBODY',
  // "Money" and "only" in Yoruba, Igbo, Hausa, Urhobo, Efik, Fulfulde and Kanuri: "kudin haya kawai" names rent, not every narration with "kudin".
  'KUDIN',
  'KUDI',
  'IGHO',
  'OKUK',
  'CEEDE',
  'KUNGANA',
  'NIKAN',
  'KAWAI',
  'NAANI',
  // Holding in Hausa ("ka riƙe duk wani kuɗi daban": hold any other money) and in a ledger's words.
  'RIKE',
  'DUBA',
  'WANI',
  'DABAN',
  'SUSPENSE',
  'SUSPEND',
  'SUSPENDED',
]);

/** Hausa's hooked letters, which Unicode does not decompose into a letter and a mark. */
const HOOKED: Record<string, string> = { Ɗ: 'D', ɗ: 'D', Ƙ: 'K', ƙ: 'K', Ƴ: 'Y', ƴ: 'Y', Ɓ: 'B', ɓ: 'B' };

/**
 * A text's words in upper case, with the tone marks and dots of Yoruba, Igbo and Hausa spelling
 * dropped ("ọgwụ" is OGWU, "ƙungiya" KUNGIYA) and apostrophes inside words closed up ("sa'adatu",
 * "mother's day"), so a word matches however it was typed.
 */
export function words(text: string): string {
  const folded = /[^\x00-\x7f]/.test(text)
    ? text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[ƊɗƘƙƳƴƁɓ]/g, (c) => HOOKED[c]!)
    : text;
  const upper = folded.toUpperCase();
  return (/['’ʼ`]/.test(upper) ? upper.replace(/(?<=[A-Z])['’ʼ`](?=[A-Z])/g, '') : upper)
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
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
  /** The clause as the prompt wrote it, for the rules it becomes. */
  text: string;
  polarity: 'expect' | 'review' | 'reject';
  intents: Set<string>;
  only: boolean;
  /** "Reject anything that is not rent": the clause is about every stated purpose but its own. */
  except: boolean;
  /** The clause's own words (stems), with every word of a topic it names. */
  words: string[];
  /** A limit on amounts, when the clause names one (see `limitOf`). */
  limit?: Limit;
  /** Senders the clause names ("from Tunde Bakare"), each as its name's words. */
  senders?: string[][];
  /** "Hold the rest" after "only from …", "hold anything not from …": the clause is about every other sender. */
  exceptSenders?: boolean;
}

/**
 * Amounts above `aboveKobo` hold (an integer of kobo: "₦1m and above" is above 99,999,999); `amounts`
 * says which as the prompt wrote it, for the explanation ("amounts of 100000000 kobo and above").
 */
interface Limit {
  aboveKobo?: number;
  /** Amounts below this hold: "review payments below ₦1,000". */
  belowKobo?: number;
  amounts: string;
  /** A clause that expects payments up to a most ("not more than ₦50k", "max 20k", "below ₦5,000 only") reviews the amounts past it. */
  polarity?: 'review';
}

/** An amount and then its comparison, which counts the amount itself: "₦1m and above", "500k or more", "from ₦2m upwards". */
const AT_LEAST = new RegExp(
  String.raw`(?:\bat least|\bfrom|\bof)?\s*${AMOUNT}\s*(?:and above|or above|and more|or more|upwards|and upward|and beyond|and up|up)\b`,
);
const AT_LEAST_BEFORE = new RegExp(
  String.raw`\b(?:at least|not less than|no less than|minimum(?:\s+of)?|min)\s*${AMOUNT}`,
);

const BETWEEN = new RegExp(String.raw`\bbetween\s*${AMOUNT}\s*(?:and|to|-)\s*${AMOUNT}`);
/** Words that describe amounts rather than expect them: "amounts under ₦1,000 look like test pings; review them". */
const UNUSUAL =
  /\b(?:unusual|rare|strange|odd|unexpected|not expected|not normal|abnormal|suspicious|looks? like|seems?|appears? to be|likely)\b/;
/** A most: "not more than ₦50k", "max 20k", "at most", "up to" (amounts past it are out of bounds). */
const AT_MOST = new RegExp(
  String.raw`\b(?:(?:not|never|n't|cannot)\s+(?:be\s+)?(?:more than|above|over|exceed(?:ing)?|greater than|` +
    String.raw`higher than)|no more than|max(?:imum)?|at most|up to|upto|limit(?:ed)?|capped at|cap(?:\s+of)?|` +
    String.raw`ceiling(?:\s+of)?)(?:\s*[:=]|\s+(?:of|is|at|to|per|single|payments?|transactions?|transfers?|credits?|amount|` +
    String.raw`deposits?|each|a|one))*\s*${AMOUNT}`,
);
/** Below: "below ₦5,000", "under 10k", "less than ₦1,000". */
const BELOW = new RegExp(String.raw`\b(?:below|under|less than|lower than|smaller than)\s*${AMOUNT}`);
const koboOf = (found: RegExpExecArray) => koboFrom(found[1]!, found[2], found[3]);

/**
 * The amounts a clause holds: "above ₦2m" those above 200000000 kobo; "₦2m and above" counts ₦2m
 * itself; "review payments below ₦1,000" those below 100000. A clause that expects payments up to a
 * most ("not more than ₦50k", "max 20k", "below ₦5,000 only") reviews the amounts past it.
 */
function limitOf(written: string, polarity: Clause['polarity']): Limit | undefined {
  const clause = amountsInDigits(written);
  // "Amounts above ₦100k are unusual; review them": the clause describes what the next one reviews, not what it expects.
  if (polarity === 'expect' && !UNUSUAL.test(clause)) {
    // "Between ₦1,000 and ₦50,000": outside the range is past what it expects.
    const range = BETWEEN.exec(clause);
    if (range) {
      const [low, high] = [
        koboFrom(range[1]!, range[2], range[3]),
        koboFrom(range[4]!, range[5] ?? range[2], range[6]),
      ];
      return {
        aboveKobo: high,
        belowKobo: low,
        amounts: `amounts outside ${low}–${high} kobo, the range it expects`,
        polarity: 'review',
      };
    }
    const most = AT_MOST.exec(clause);
    if (most && isMoney(most))
      return {
        aboveKobo: koboOf(most),
        amounts: `amounts above ${koboOf(most)} kobo, the most it expects`,
        polarity: 'review',
      };
    const below = BELOW.exec(clause);
    if (below && isMoney(below))
      return {
        aboveKobo: koboOf(below) - 1,
        amounts: `amounts of ${koboOf(below)} kobo and above, past what it expects`,
        polarity: 'review',
      };
    // "Payments must be at least ₦500", "minimum ₦1,000", "₦1,000 and above only": less is short of what it expects.
    const least = AT_LEAST_BEFORE.exec(clause) ?? AT_LEAST.exec(clause);
    if (least && isMoney(least))
      return {
        belowKobo: koboOf(least),
        amounts: `amounts below ${koboOf(least)} kobo, the least it expects`,
        polarity: 'review',
      };
  }
  // "Max ₦30 per payment, hold anything more": a most, said with the verb that holds past it.
  const most = polarity === 'expect' || LIMIT.test(clause) ? null : AT_MOST.exec(clause);
  if (most && isMoney(most) && MORE.test(clause.slice(most.index + most[0].length)))
    return { aboveKobo: koboOf(most), amounts: `amounts above ${koboOf(most)} kobo` };
  const limit = LIMIT.exec(clause);
  const atLeast = limit ? undefined : (AT_LEAST.exec(clause) ?? AT_LEAST_BEFORE.exec(clause));
  const found = limit ?? atLeast;
  if (!found) {
    const below = AT_MOST.exec(clause) ? undefined : BELOW.exec(clause);
    return below && isMoney(below)
      ? { belowKobo: koboOf(below), amounts: `amounts below ${koboOf(below)} kobo` }
      : undefined;
  }
  const kobo = koboOf(found);
  return atLeast
    ? { aboveKobo: kobo - 1, amounts: `amounts of ${kobo} kobo and above` }
    : { aboveKobo: kobo, amounts: `amounts above ${kobo} kobo` };
}

/** "Hold anything more", "reject whatever is above", after a clause that sets a most. */
const MORE = /\b(?:more|above|over|higher|bigger|larger|beyond|past (?:it|that))\b/;

/** "Only" in English, Yoruba ("nikan"), Hausa ("kawai") and Igbo ("naanị"), tone marks folded. */
const ONLY = / (?:ONLY|NIKAN|KAWAI|NAANI) /;
/** Accepted, in English and Hausa ("za a karba", "will be received"): with an "only", the rest is not. */
const ACCEPTED = /\b(?:accepted|allowed|permitted|credited|karba|karbi|karbar)\b/;
/** "Accept only rent", "only credit school fees": an order to take one thing, which refuses the rest unless a later clause says what to do with it. */
const TAKE_ONLY = /^(?:please\s+|pls\s+|kindly\s+)?(?:only\s+(?:accept|credit)|(?:accept|credit)\s+only)\b/;
const EXCEPT = /\b(?:not|except|other than|apart from|besides|unless|no be|nor be|isn't)\b/;
/** "Anything else", "every other payment": what the clause before did not name. */
const ELSE = /\b(?:else|other|others|rest|oda|oder|anoda|anoder|daban)\b/;
/**
 * "School fees only, review the rest": a comma before a verb of review or rejection of "the rest" (or
 * "anything else", "any other") starts a clause of its own. "Any money wey na loan, hold am" stays one.
 */
const VERB_AFTER_COMMA = new RegExp(
  `(?:,|—|–|:|\\s-\\s)\\s*(?=(?:and\\s+|then\\s+|please\\s+|pls\\s+)?` +
    `(?:(?:${REJECT_VERBS}|${REVIEW_VERBS}|anything|everything|any|all|no|other)` +
    `\\b[^,]*\\b(?:else|other|others|rest|oda|oder|anoda|anoder)\\b|` +
    `(?:the rest|the others|others|any oda)\\b))`,
  'i',
);

/** What names each intent in a prompt: its label, its name, and its strong terms (weight 3 or more). */
const NAMED_BY = INTENTS.map((i) => ({
  intent: i.intent,
  names: [
    words(i.label),
    words(i.intent.replace(/_/g, ' ')),
    ...i.terms.filter(([, weight]) => weight >= 3).map(([term]) => term),
  ],
}));

/**
 * Reads a prompt's sentences clause by clause: what each expects, wants reviewed or rejected. A
 * clause that says only "review them" or "hold am" after one that names a limit ("Amounts above ₦100k
 * are unusual; review them") reviews the amounts above that limit.
 */
export function readClauses(sentences: string[]): Clause[] {
  // Split as written: the case of a clause's words tells a sender's name ("from Tunde Bakare") from other words.
  const raw = sentences
    .flatMap((sentence) => exceptions(sentence).split(/;|\bbut\b/i))
    .flatMap((clause) => clause.split(VERB_AFTER_COMMA))
    .map((clause) => clause.trim())
    .filter(Boolean);
  const lower = raw.map((clause) => clause.toLowerCase());
  const clauses = raw.map((written, i): Clause => {
    const clause = lower[i]!;
    const tokens = words(clause).split(' ');
    const text = textOf(tokens);
    const intents = new Set(
      NAMED_BY.filter(({ names }) => names.some((term) => mentions(text, term))).map(({ intent }) => intent),
    );
    const own = tokens
      .filter((w) => !STOPWORDS.has(w))
      .map(stem)
      .filter((w) => w.length >= 4 && !STOPWORDS.has(w) && !/^\d+$/.test(w));
    // A topic is named by any of its words, short ones too ("no bet money", "reject BTC").
    const topics = TOPICS.filter((topic) => topic.some((w) => text.tokens.has(w) || text.tokens.has(stem(w))))
      .flat()
      .map(stem);
    // "No need to review salaries" asks for nothing.
    const only = ONLY.test(` ${tokens.join(' ')} `);
    // "Only rent will be accepted", "kudin haya kawai za a karba": accepting one thing only refuses the rest.
    const acceptsOnly =
      only && intents.size > 0 && ACCEPTED.test(clause) && !REJECT.test(clause) && !REVIEW.test(clause);
    const polarity: Clause['polarity'] = acceptsOnly
      ? 'reject'
      : NO_NEED.test(clause)
        ? 'expect'
        : REJECT.test(clause)
          ? 'reject'
          : REVIEW.test(clause)
            ? 'review'
            : 'expect';
    const limit = limitOf(clause, polarity);
    // The "not" of "do not accept" is the verb's: only a "not" after the verb makes an exception.
    const afterVerb = polarity === 'expect' ? clause : clause.replace(polarity === 'reject' ? REJECT : REVIEW, ' ');
    const except = acceptsOnly || (polarity !== 'expect' && intents.size > 0 && EXCEPT.test(afterVerb));
    const senders = sendersIn(written);
    // A sender's name is matched as a name (two of its words), not word by word: "Musa" alone is not Musa Danjuma.
    const named = new Set(senders.flat().map(stem));
    return {
      text: written,
      polarity,
      intents,
      only,
      except,
      words: [...new Set([...(polarity === 'expect' ? own : own.filter((w) => !named.has(w))), ...topics])],
      ...(limit ? { limit } : {}),
      ...(senders.length > 0
        ? { senders, exceptSenders: polarity !== 'expect' && intents.size === 0 && EXCEPT.test(afterVerb) }
        : {}),
    };
  });
  const told = new Set<Clause>();
  clauses.forEach((clause, i) => {
    const before = clauses[i - 1];
    const bare =
      clause.polarity !== 'expect' &&
      clause.limit === undefined &&
      clause.intents.size === 0 &&
      clause.words.length === 0 &&
      clause.senders === undefined;
    if (bare && before?.limit !== undefined && before.limit.polarity === undefined) clause.limit = before.limit;
    // "Max ₦30 per payment. Hold anything more": the same limit, said twice.
    if (bare && before?.limit?.polarity === 'review' && MORE.test(lower[i]!)) clause.limit = before.limit;
    // "Only salaries from Zenith. Review anything else": everything but what the clauses before expect
    // only, or, with no "only", expect at all ("Accept rent from tenants, no other payments").
    const expected = clauses.slice(0, i).filter((c) => c.polarity === 'expect' && c.intents.size > 0);
    const only = expected.some((c) => c.only) ? expected.filter((c) => c.only) : expected;
    if (bare && clause.limit === undefined && ELSE.test(lower[i]!) && only.length > 0) {
      only.forEach((c) => told.add(c));
      only.forEach((c) => c.intents.forEach((intent) => clause.intents.add(intent)));
      clause.except = true;
    }
    // "Only payments from Tunde Bakare. Hold the rest": everyone but the senders the clauses before expect.
    const fromOnly = clauses
      .slice(0, i)
      .filter((c) => c.polarity === 'expect' && c.senders && (c.only || c.intents.size === 0));
    if (bare && clause.limit === undefined && ELSE.test(lower[i]!) && fromOnly.length > 0 && only.length === 0) {
      clause.senders = fromOnly.flatMap((c) => c.senders!);
      clause.exceptSenders = true;
    }
  });
  clauses.forEach((clause, i) => {
    if (TAKE_ONLY.test(lower[i]!) && clause.polarity === 'expect' && clause.intents.size > 0 && !told.has(clause)) {
      clause.polarity = 'reject';
      clause.except = true;
    }
  });
  return clauses;
}

/**
 * "Hold all but school fees" and "accept everything except betting" as two clauses: what is said of
 * all, and what is said of the exception ("reject betting"). Without this, "but" would split the first
 * into "hold all" and "school fees", and the second would accept betting.
 */
function exceptions(prompt: string): string {
  return prompt
    .replace(/\b(all|everything|anything|any payment|every payment|any other payment)\s+but\b/gi, '$1 except')
    .replace(
      new RegExp(
        String.raw`\b((?:accept|credit|allow|take|receive)\s+(?:all|everything|anything|any)\b[^.;,]*?|` +
          String.raw`(?:all|everything|anything)[^.;,]*?\b(?:is|are)\s+(?:fine|ok|okay|welcome|accepted|allowed))` +
          String.raw`\s*,?\s*\b(?:except|excluding|but not|other than|apart from|save for)\b`,
        'gi',
      ),
      '$1; reject ',
    );
}

/** Words in front of a name that are not part of it: "from my tenant Mr Tunde Bakare". */
const BEFORE_NAME = new Set([
  'my',
  'our',
  'the',
  'his',
  'her',
  'their',
  'son',
  'daughter',
  'wife',
  'husband',
  'brother',
  'sister',
  'tenant',
  'tenants',
  'landlord',
  'boss',
  'customer',
  'client',
  'friend',
  'uncle',
  'aunty',
  'auntie',
]);
/** Titles, dropped from a named sender: a surname or a given name is what a bank's sender name holds. */
const SENDER_TITLES = new Set([
  'MR',
  'MRS',
  'MS',
  'MISS',
  'DR',
  'CHIEF',
  'ALHAJI',
  'ALHAJA',
  'HAJIA',
  'ENGR',
  'PASTOR',
  'PROF',
  'BARR',
  'MALAM',
  'MALLAM',
  'MADAM',
  'SIR',
  'LADY',
]);

/**
 * The senders a clause names, each as its name's words: "from Tunde Bakare" (or "by"), words written
 * with a capital after "from" and the words that stand in front of a name. A prompt in capitals
 * throughout names no sender this way: its capitals tell nothing.
 */
function sendersIn(written: string): string[][] {
  if (!/[a-z]/.test(written)) return [];
  const senders: string[][] = [];
  for (const match of written.matchAll(/\b(?:from|by)\s+([^;:()]+)/gi)) {
    // "From Amaka Obi or Ifeanyi Obi", "from Ada Obi, Musa Bello and Tunde": each name a sender, until a part names none ("…, hold the rest").
    for (const part of match[1]!.split(/\s*,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+|\s*&\s*/)) {
      const name = nameIn(part);
      if (name.length === 0) break;
      senders.push(name);
    }
  }
  return senders;
}

/** The name a part of a clause starts with: its words written with a capital, past "my tenant" and titles. */
function nameIn(part: string): string[] {
  const name: string[] = [];
  for (const word of part.split(/\s+/)) {
    if (!word) continue;
    if (name.length === 0 && BEFORE_NAME.has(word.toLowerCase())) continue;
    if (!/^[A-Z\u00C0-\u024F]/.test(word)) break;
    const upper = words(word);
    if (upper && !SENDER_TITLES.has(upper) && !STOPWORDS.has(upper)) name.push(upper);
  }
  return name;
}

/** Whether a payment is from a named sender: two words of the name (or its one word) in the sender's name or the narration. */
export function isFrom(sender: string[], heard: Set<string>): boolean {
  return sender.filter((w) => heard.has(w)).length >= Math.min(2, sender.length);
}
