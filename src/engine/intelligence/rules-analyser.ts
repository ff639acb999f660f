import type { NarrationAnalyser, NarrationInput, ServiceIntelligence } from './analyser.js';
import {
  DEFERRING_TERMS,
  FRAUD_TERMS,
  GENERAL_PAYMENT,
  GENERIC_PHRASES,
  GENERIC_TERMS,
  INTENTS,
  MONTHS,
  TRANSFER_NOUNS,
  TRANSFER_TERMS,
} from './lexicon.js';
import { CHANNEL_WORDS, EMPTY_WORDS, FAMILY_WORDS, FILLER_WORDS, NAMES } from './nigerian-words.js';
import { englishWords } from './word-list.js';
import { emojiIn, emojiReading } from './emoji.js';
import { applyMarkers, withoutMarkers } from './markers.js';
import { CONTROLLED_MEDICINES, isPrescribed, riskShapesIn, undoesFraudulentDebit } from './risk-shapes.js';
import { paymentRules, purposeRules, readInstruction } from './instructions/rules.js';
import { mentions, stem, textOf, words } from './prompt.js';
import { classifyToken, noiseReason, type TokenKind } from './readable.js';
import { spelledAs, spelledPair } from './spelling.js';
import { inContext } from './risk-context.js';

const SPECIFIC = new Set(INTENTS.map((i) => i.intent));
const UPKEEP = INTENTS.find((i) => i.intent === 'upkeep')!;
const LABEL_OF = new Map<string, string>([
  ...INTENTS.map((i) => [i.intent, i.label] as const),
  ['transfer', 'Transfer'],
]);
/** What the terms of each deferring level say, when they give way to a more specific intent. */
const GAVE_WAY: [number[], string][] = [
  [[1], 'buying, not what was bought'],
  [[2, 3], 'an occasion or a share, not what for'],
];
/** Words for the money itself, which in front of a transfer word name the transfer ("funds transfer"). */
const MONEY_WORDS = new Set(['FUND', 'FUNDS', 'MONEY', 'CASH']);
/** "sent you money", "transferred u funds": the words of the apps' notices of a transfer. */
const SENT_WORDS = new Set(['SENT', 'SEND', 'SENDS', 'TRANSFERRED', 'PAID']);
const YOU_WORDS = new Set(['YOU', 'U', 'YA']);
const isName = (kind: TokenKind | undefined) => kind === 'name' || kind === 'name-like';
/** Kinds of token after which a run of names has not ended: more words of a sentence. */
const READ_ON = new Set<TokenKind>(['word', 'local', 'filler', 'generic']);

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
const quote = (tokens: string[]) => `"${tokens.join(' ').toLowerCase()}"`;

/**
 * The default analyser: offline, deterministic and explainable. It scores intents from a lexicon
 * of Nigerian narration terms; text with no specific purpose is told apart as readable (English
 * words from the `word-list` package, the Nigerian lexicon, names) or noise; then the wallet's
 * system_prompt raises confidence for what it expects and flags what it wants reviewed or rejected.
 * @example await new RulesAnalyser().analyse({ narration: 'NIP/GTB/ADA OBI/RENT JAN 2026', systemPrompt: '', amount: 500000, senderName: 'ADA OBI' })
 */
export class RulesAnalyser implements NarrationAnalyser {
  readonly name = 'rules';
  async analyse(input: NarrationInput): Promise<ServiceIntelligence> {
    return analyseNarration(input);
  }
}

interface Reading {
  intent: string;
  label: string;
  confidence: number;
  flags: string[];
  explanation: string[];
  /** Read from emoji alone: there were no words for them to agree with. */
  emojiOnly?: true;
}

/** Emoji alone: a purpose as plain as a word's, from a symbol that could be misread, so just above the hold threshold. */
const EMOJI_ONLY = 0.55;
/** Emoji beside words that already say the same purpose. */
const EMOJI_AGREE = 0.05;

/** "3 of 6", "2/6": the n-th of a few instalments (not a date or a session like 2026/2027). */
function isInstalment(text: string): boolean {
  return [...text.matchAll(/\b(\d{1,2}) ?(?:OF|\/) ?(\d{1,2})\b/g)].some(
    ([, n, of]) => Number(n) >= 1 && Number(n) <= Number(of),
  );
}

/**
 * A stake and what it returns ("50k returns 150k", "invest 20k get 40k"): money put in for a return, an
 * investment (a Ponzi scheme's, held as fraud by its words, all the same). A scheme's name alone
 * ("double your money", "MMM returns") states no stake.
 */
const STAKE_AND_RETURN =
  /\b(\d+[KM]|\d{3,}) ?(?:RETURNS?|YIELDS?|GIVES?|BECOMES?|GETS?|EARNS?|PAYS?|TURNS? TO) ?(\d+[KM]|\d{3,})\b/;

/** Every intent term by its word, and the phrases by their first word, so a narration is matched in one pass over its tokens. */
const MAX_TERMS = 1000;
/** The intent index of the generic phrases: they hold words that name no purpose there ("services rendered"). */
const GENERIC_INDEX = INTENTS.length;
const WORD_TERMS = new Map<string, number[]>();
const PHRASE_TERMS = new Map<string, { words: string[]; id: number }[]>();
const addTerm = (term: string, id: number) => {
  const split = term.split(' ');
  if (split.length === 1) WORD_TERMS.set(term, [...(WORD_TERMS.get(term) ?? []), id]);
  else PHRASE_TERMS.set(split[0]!, [...(PHRASE_TERMS.get(split[0]!) ?? []), { words: split, id }]);
};
INTENTS.forEach((intent, i) => intent.terms.forEach(([term], order) => addTerm(term, i * MAX_TERMS + order)));
GENERIC_PHRASES.forEach((phrase, order) => addTerm(phrase, GENERIC_INDEX * MAX_TERMS + order));

/**
 * The terms a narration holds, as written or as stems. A phrase decides what its words mean: its
 * words count for no other intent ("ulo ogwu", the hospital, is not rent for its "ulo"), and a longer
 * phrase of another intent overrides a shorter one it overlaps ("owo ile iwe" is school, not "owo ile").
 */
function termsIn(written: string[]): Set<number> {
  const stems = written.map(stem);
  const phrases: { id: number; start: number; end: number }[] = [];
  for (const sequence of [written, stems]) {
    sequence.forEach((first, start) => {
      for (const { words, id } of PHRASE_TERMS.get(first) ?? []) {
        if (words.every((w, k) => sequence[start + k] === w)) phrases.push({ id, start, end: start + words.length });
      }
    });
  }
  const intentOf = (id: number) => Math.floor(id / MAX_TERMS);
  const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
    a.start < b.end && b.start < a.end;
  const kept = phrases.filter(
    (p) =>
      !phrases.some((q) => intentOf(q.id) !== intentOf(p.id) && overlap(p, q) && q.end - q.start > p.end - p.start),
  );
  const owners = new Map<number, Set<number>>();
  for (const p of kept)
    for (let k = p.start; k < p.end; k++) owners.set(k, (owners.get(k) ?? new Set()).add(intentOf(p.id)));
  const hits = new Set(kept.map((p) => p.id));
  const add = (k: number, ids: number[] | undefined) => {
    for (const id of ids ?? []) if (!owners.has(k) || owners.get(k)!.has(intentOf(id))) hits.add(id);
  };
  written.forEach((token, k) => {
    // A word is one term: "bills" is BILLS, not BILLS and its stem BILL.
    add(k, WORD_TERMS.get(token) ?? (stems[k] === token ? undefined : WORD_TERMS.get(stems[k]!)));
  });
  for (const id of hits) if (intentOf(id) === GENERIC_INDEX) hits.delete(id);
  return hits;
}

/**
 * Fraud words by word, and the longest word of each fraud phrase (the rarest: PRESCRIPTION of "no
 * prescription", not NO), so a narration is checked in one pass over its tokens and most pass it.
 */
const FRAUD_WORDS = new Set(FRAUD_TERMS.filter((t) => !t.includes(' ')));
const FRAUD_PHRASE_KEYS = new Set(
  FRAUD_TERMS.filter((t) => t.includes(' ')).map((t) => t.split(' ').reduce((a, b) => (b.length > a.length ? b : a))),
);

/** The fraud words and phrases a narration holds, as written or as stems, in the list's order. */
function fraudIn(tokens: string[]): string[] {
  const stems = tokens.map(stem);
  if (
    !tokens.some(
      (t, k) =>
        FRAUD_WORDS.has(t) ||
        FRAUD_WORDS.has(stems[k]!) ||
        FRAUD_PHRASE_KEYS.has(t) ||
        FRAUD_PHRASE_KEYS.has(stems[k]!),
    )
  )
    return [];
  const spoken = textOf(tokens);
  return FRAUD_TERMS.filter((t) => mentions(spoken, t));
}

/**
 * A romance scam's pattern: an endearment with what such scams are about (a flight to come and meet,
 * a visa, customs on a package, a soldier abroad). Either alone is an everyday narration ("upkeep my
 * love", "flight ticket for mama").
 */
const ENDEARMENTS = [
  'MY LOVE',
  'MY DEAR',
  'MY DEAREST',
  'DEAREST',
  'SWEETHEART',
  'MY SWEETHEART',
  'MY HONEY',
  'MY BABY',
  'MY BABE',
  'DARLING',
  'MY DARLING',
  'MY QUEEN',
  'MY KING',
  'BAE',
  'LOVE YOU',
];
const ROMANCE_THEMES = [
  'FLIGHT',
  'VISA',
  'CUSTOMS',
  'CLEARANCE',
  'PACKAGE',
  'PARCEL',
  'CONSIGNMENT',
  'COME SEE ME',
  'COME AND SEE ME',
  'VISIT ME',
  'MEET ME',
  'MEET YOU',
  'SEE YOU SOON',
  'ARMY',
  'SOLDIER',
  'SGT',
  'SERGEANT',
  'DEPLOYMENT',
  'DEPLOYED',
  'GIFT CARD',
  'ITUNES',
  'STEAM CARD',
  'ABROAD',
  'OVERSEAS',
];

/** The endearment and the theme of a romance scam, when a narration holds both. */
const ENDEARMENT_WORDS = new Set(ENDEARMENTS.flatMap((e) => e.split(' ')).filter((w) => w !== 'MY' && w !== 'YOU'));
function romanceIn(tokens: string[]): string[] {
  if (!tokens.some((t) => ENDEARMENT_WORDS.has(t))) return [];
  const spoken = textOf(tokens);
  const endearment = ENDEARMENTS.find((t) => mentions(spoken, t));
  const theme = endearment && ROMANCE_THEMES.find((t) => mentions(spoken, t));
  return endearment && theme ? [endearment, theme] : [];
}

/** Every word of the lexicon's phrases. */
const PHRASE_WORDS = new Set([...PHRASE_TERMS.values()].flatMap((phrases) => phrases.flatMap((p) => p.words)));

/** Pidgin and text-speak glue "4" (for) and "2" (to) to the words around them: "upkeep4dis", "4my", "money2day". */
const GLUED = /^([A-Z]*)([24])([A-Z]*)$/;
const GLUED_WORD = { '4': 'FOR', '2': 'TO' } as const;

/** A side of a glued token that is surely a word: a lexicon or filler word, a month, or an English word of three letters or more. */
function surelyWord(side: string): boolean {
  return (
    WORD_TERMS.has(side) ||
    FILLER_WORDS.has(side) ||
    GENERIC_TERMS.has(side) ||
    TRANSFER_TERMS.has(side) ||
    MONTHS.has(side) ||
    (side.length >= 3 && englishWords().has(side.toLowerCase()))
  );
}

/**
 * The words a token with a glued 4 or 2 stands for: "upkeep4dis" is UPKEEP FOR DIS, "4my" FOR MY,
 * "2day" TODAY. Both sides must be words (one of two letters or more), so codes keep their digits:
 * "JSS2", "P2P", "Q4", "A4", "MP4".
 */
function unglued(token: string): string[] | undefined {
  const glued = GLUED.exec(token);
  if (!glued || WORD_TERMS.has(token) || FILLER_WORDS.has(token)) return undefined;
  const [, before, digit, after] = glued as unknown as [string, string, '2' | '4', string];
  const word = GLUED_WORD[digit];
  if (!before && after.length >= 2 && englishWords().has((word + after).toLowerCase())) return [word + after];
  const sides = [before, after].filter(Boolean);
  if (!sides.some((side) => side.length >= 2) || !sides.every(surelyWord)) return undefined;
  return [...(before ? [before] : []), word, ...(after ? [after] : [])];
}

/**
 * A lexicon word written against a number ("rent2025", "feb2026salary", "JSS3fees", "schfees2ndterm")
 * is that word and the number, when a run of three letters or more is a lexicon word or phrase run
 * together. Codes whose letters are no such word keep their digits ("BET9JA", "AK47", "GTB123", "LN2").
 */
function unnumbered(token: string): string[] | undefined {
  if (WORD_TERMS.has(token) || !/[A-Z]{3}/.test(token)) return undefined;
  const runs = token.match(/[A-Z]+|\d+/g)!.flatMap((run) => withMonth(run) ?? [run]);
  const named = runs.some(
    (run) => run.length >= 3 && /^[A-Z]+$/.test(run) && (WORD_TERMS.has(run) || RUN_TOGETHER.has(run)),
  );
  return named ? runs : undefined;
}

/** A lexicon word and a month run together, either way round: "salaryjan", "decrent". */
function withMonth(run: string): string[] | undefined {
  for (const n of [3, 4, 5, 6, 7, 8, 9]) {
    if (run.length < n + 3) break;
    const [head, tail] = [run.slice(0, n), run.slice(n)];
    if (MONTHS.has(head) && WORD_TERMS.has(tail)) return [head, tail];
    const [front, end] = [run.slice(0, -n), run.slice(-n)];
    if (MONTHS.has(end) && WORD_TERMS.has(front)) return [front, end];
  }
  return undefined;
}

/** Digits typed for the letters they look like. */
const LOOKALIKE: Record<string, string> = { '0': 'O', '1': 'I', '3': 'E', '4': 'A', '5': 'S', '7': 'T', '8': 'B' };

/** A word with digits for letters ("r3nt", "sch00l", "s4lary"), when the letters make a lexicon word. */
function lookalike(token: string): string[] | undefined {
  if (!/^[A-Z0-9]+$/.test(token) || !/[A-Z]/.test(token)) return undefined;
  const word = token.replace(/[0134578]/g, (d) => LOOKALIKE[d]!);
  return word.length >= 4 && /^[A-Z]+$/.test(word) && (WORD_TERMS.has(word) || RUN_TOGETHER.has(word))
    ? [word]
    : undefined;
}

/** Lexicon phrases written as one word ("schfees", "houserent", "chopmoney"), by the word they make. */
const RUN_TOGETHER = new Map<string, string[]>();
for (const phrases of PHRASE_TERMS.values())
  for (const { words: split } of phrases) RUN_TOGETHER.set(split.join(''), split);

/**
 * Tokens that are no lexicon word, English word or name, read as the lexicon word they misspell
 * ("tution" → TUITION) or the phrase they run together ("schfees" → SCH FEES).
 */
function respelt(tokens: string[], senderWords: ReadonlySet<string>): { tokens: string[]; read: string[] } {
  const read: string[] = [];
  const out = tokens.flatMap((token) => {
    if (/\d/.test(token)) {
      const parts = unglued(token) ?? unnumbered(token) ?? lookalike(token);
      if (!parts) return [token];
      read.push(`read "${token.toLowerCase()}" as ${parts.join(' ')}`);
      return parts.flatMap((part) => RUN_TOGETHER.get(part) ?? [part]);
    }
    // "Y" typed for "I" between consonants ("tythe"): the word list may hold the old spelling as a word, so the slip-reader below never sees it.
    const withI =
      token.length >= 4 && token.includes('Y') && !WORD_TERMS.has(token)
        ? token.replace(/(?<=[^AEIOUY])Y(?=[^AEIOUY])/g, 'I')
        : undefined;
    if (withI !== undefined && WORD_TERMS.has(withI)) {
      read.push(`read "${token.toLowerCase()}" as ${withI}`);
      return [withI];
    }
    // The spelling is looked up first: it is cheaper than the word list, and rarely finds anything.
    // A word of a lexicon phrase ("iwinna" of IGHO IWINNA) is a word, not a slip of another ("irinna").
    const as =
      WORD_TERMS.has(token) || PHRASE_WORDS.has(token)
        ? undefined
        : (RUN_TOGETHER.get(token) ?? spelledAs(token) ?? withMonth(token));
    if (as === undefined) return [token];
    const kind = classifyToken(token, senderWords);
    if (kind !== 'name-like' && kind !== 'noise') return [token];
    read.push(`read "${token.toLowerCase()}" as ${typeof as === 'string' ? as : as.join(' ')}`);
    return typeof as === 'string' ? [as] : as;
  });
  return { tokens: out, read };
}

/** With no term found: two neighbouring tokens read as the phrase they misspell or cut short ("shool fess", a narration ending "house ren"). */
function respeltPairs(tokens: string[], senderWords: ReadonlySet<string>, read: string[]): string[] | undefined {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const [first, second] = [tokens[i]!, tokens[i + 1]!];
    const pair = spelledPair(first, second, i + 2 === tokens.length);
    if (!pair || [first, second].some((t) => classifyToken(t, senderWords) === 'name')) continue;
    read.push(`read "${`${first} ${second}`.toLowerCase()}" as ${pair.join(' ')}`);
    return [...tokens.slice(0, i), ...pair, ...tokens.slice(i + 2)];
  }
  return undefined;
}

/** What the narration itself says, before the prompt and the markers. */
function readNarration(upper: string, rawSlashed: string, senderName: string): Reading {
  const normal = words(upper);
  const written = normal ? normal.split(' ') : [];
  if (written.length === 0 || written.every((t) => EMPTY_WORDS.has(t))) {
    // A cake or prayer hands say what the money is for as plainly as a word; punctuation and faces say nothing.
    const emoji = emojiReading(upper);
    if (emoji) {
      const explanation = [`emoji only: ${emoji.reads} → ${emoji.intent}`];
      return {
        intent: emoji.intent,
        label: emoji.label,
        confidence: EMOJI_ONLY,
        flags: [],
        explanation,
        emojiOnly: true,
      };
    }
    const symbols = [...new Set(emojiIn(upper))];
    return {
      intent: 'unknown',
      label: 'Uncategorised',
      confidence: 0.1,
      flags: ['EMPTY_NARRATION'],
      explanation: [
        written.length
          ? `${quote(written)} says nothing: an empty narration`
          : symbols.length
            ? `${symbols.join(' ')} ${symbols.length > 1 ? 'name' : 'names'} no purpose: an empty narration`
            : 'empty narration: nothing to read',
      ],
    };
  }
  const senderWords = new Set(words(senderName).split(' '));
  const respelled = respelt(written, senderWords);
  const read = respelled.read;
  let tokens = respelled.tokens;
  // "GIFT OKORO EMMANUEL": a given name that is also a lexicon word, heading two names or more and nothing else, is a name.
  const namedByWord =
    tokens.length >= 3 &&
    NAMES.has(tokens[0]!) &&
    tokens.slice(1).every((t) => classifyToken(t, senderWords) === 'name');
  let hits = namedByWord ? new Set<number>() : termsIn(tokens);
  if (hits.size === 0 && !namedByWord) {
    const pair = respeltPairs(tokens, senderWords, read);
    if (pair) [tokens, hits] = [pair, termsIn(pair)];
  }
  const found = new Map<number, [string, number][]>();
  for (const id of [...hits].sort((a, b) => a - b)) {
    const i = Math.floor(id / MAX_TERMS);
    found.set(i, [...(found.get(i) ?? []), INTENTS[i]!.terms[id % MAX_TERMS]!]);
  }
  const all = INTENTS.map((intent, i) => {
    const matched = found.get(i) ?? [];
    let score = matched.reduce((sum, [, weight]) => sum + weight, 0);
    if (intent.intent === 'loan_repayment' && isInstalment(rawSlashed)) {
      score += 2;
      matched.push(['<n> OF <n>', 2]);
    }
    if (intent.intent === 'savings' && STAKE_AND_RETURN.test(rawSlashed)) {
      score += 3;
      matched.push(['<stake> RETURNS <amount>', 3]);
    }
    const level = Math.min(...matched.map(([t]) => DEFERRING_TERMS.get(t) ?? 0));
    return { intent, score, matched, level };
  }).filter((s) => s.score > 0);
  // Buying, an occasion or a share gives way to a purpose: only the intents with the most specific terms compete.
  const level = Math.min(...all.map((s) => s.level));
  const scores = all.filter((s) => s.level === level).sort((a, b) => b.score - a.score);
  const best = scores[0];
  if (best) {
    const explanation = [
      ...read,
      `matched ${best.matched.map(([t]) => t).join(', ')} → ${best.intent.intent} (score ${best.score})`,
    ];
    const gaveWay = all.filter((s) => s.level > level);
    for (const [levels, what] of GAVE_WAY) {
      const these = gaveWay.filter((s) => levels.includes(s.level)).flatMap((s) => s.matched.map(([t]) => t));
      if (these.length > 0)
        explanation.push(`${these.join(', ')} ${these.length > 1 ? 'name' : 'names'} ${what}: not counted`);
    }
    let confidence = Math.min(0.95, 0.55 + 0.1 * best.score);
    // A wage or an allowance for one's mother or children is their upkeep ("monthly allowance for Mama in village").
    const family =
      best.intent.intent === 'salary'
        ? tokens.find((t, i) => FAMILY_WORDS.has(t) && !isName(classifyToken(tokens[i + 1] ?? '', senderWords)))
        : undefined;
    if (family) explanation.push(`for ${family.toLowerCase()}, family: upkeep, not a wage`);
    const chosen = family ? UPKEEP : best.intent;
    const flags: string[] = [];
    const runnerUp = scores[1];
    if (runnerUp && runnerUp.score === best.score) {
      confidence -= 0.2;
      flags.push('AMBIGUOUS_INTENT');
      explanation.push(`${runnerUp.intent.intent} scores the same: -0.2`);
    }
    return { intent: chosen.intent, label: chosen.label, confidence, flags, explanation };
  }

  const kinds = new Map<TokenKind, string[]>();
  const classes = tokens.map((token, i): TokenKind => {
    // "funds transfer", "money transfer": a generic word naming the transfer itself says only that money moved.
    const classified = classifyToken(token, senderWords);
    // "Emeka sent you money", the apps' notice of a transfer, names the transfer too ("money sent" does not).
    const sentYou = SENT_WORDS.has(tokens[i - 2] ?? '') && YOU_WORDS.has(tokens[i - 1] ?? '');
    if (MONEY_WORDS.has(token) && (TRANSFER_NOUNS.has(tokens[i + 1] ?? '') || sentYou)) return 'transfer';
    // An app named with a money word ("CHIPPER CASH", "CASH APP") is a channel, not a payment word.
    return MONEY_WORDS.has(token) && (CHANNEL_WORDS.has(tokens[i - 1] ?? '') || tokens[i + 1] === 'APP')
      ? 'channel'
      : classified;
  });
  tokens.forEach((token, i) => {
    // An English word inside a run of names, or at either end of a run of two, is a name ("ALHAJI MUSTAPHA KOLO").
    const [twoBefore, before, after, twoAfter] = [classes[i - 2], classes[i - 1], classes[i + 1], classes[i + 2]];
    const readOn = (kind: TokenKind | undefined) => kind !== undefined && READ_ON.has(kind);
    const inRun =
      classes[i] === 'word' &&
      ((isName(before) && isName(after)) ||
        (isName(twoBefore) && isName(before) && !readOn(after)) ||
        (isName(after) && isName(twoAfter) && !readOn(before)));
    const kind = inRun ? 'name' : classes[i]!;
    kinds.set(kind, [...(kinds.get(kind) ?? []), token]);
  });
  const of = (...wanted: TokenKind[]) => wanted.flatMap((k) => kinds.get(k) ?? []);
  const readable = of('word', 'local', 'filler', 'generic', 'transfer', 'channel', 'name', 'name-like');
  const noise = of('noise');
  if (noise.length > 0 && noise.length >= readable.length) {
    return {
      intent: 'unknown',
      label: 'Uncategorised',
      confidence: 0.3,
      flags: ['UNCLEAR_NARRATION'],
      explanation: [
        ...read,
        `unreadable: ${noise.map((t) => `"${t.toLowerCase()}" (${noiseReason(t) ?? 'not a word or a name'})`).join(', ')}`,
      ],
    };
  }
  if (readable.length === 0) {
    return {
      intent: 'unknown',
      label: 'Uncategorised',
      confidence: 0.3,
      flags: ['UNCLEAR_NARRATION'],
      explanation: [...read, `only numbers and codes: ${quote(tokens)}`],
    };
  }
  const generic = of('generic');
  if (generic.length > 0) {
    return {
      ...GENERAL_PAYMENT,
      confidence: 0.6,
      flags: [],
      explanation: [...read, `${quote(generic)} names a payment but not what for → payment`],
    };
  }
  const plain = of('word', 'local', 'filler');
  const who = of('transfer', 'channel', 'name', 'name-like');
  if (who.length > 0 && of('word', 'local').length === 0) {
    return {
      intent: 'transfer',
      label: 'Transfer',
      confidence: 0.6,
      flags: [],
      explanation: [...read, `only channel words and names (${quote(who)}): a transfer with no stated purpose`],
    };
  }
  return {
    ...GENERAL_PAYMENT,
    confidence: 0.55,
    flags: [],
    explanation: [...read, `readable (${quote(plain)}) but no specific purpose → payment`],
  };
}

export function analyseNarration({ narration, systemPrompt, amount, senderName }: NarrationInput): ServiceIntelligence {
  const text = withoutMarkers(narration);
  const reading = readNarration(text, text.replace(/[^A-Z0-9/]+/g, ' '), senderName);
  const { intent, label, explanation } = reading;
  const draft = { confidence: reading.confidence, flags: new Set(reading.flags), explanation };
  // Emoji beside words may support what the words say, never replace it.
  const emoji = reading.emojiOnly ? undefined : emojiReading(text);
  if (emoji?.intent === intent) {
    const raised = Math.max(draft.confidence, Math.min(0.95, draft.confidence + EMOJI_AGREE));
    explanation.push(`emoji agree: ${emoji.reads}${raised > draft.confidence ? `: +${EMOJI_AGREE}` : ''}`);
    draft.confidence = raised;
  }
  const tokens = words(text).split(' ').filter(Boolean);
  const stems = new Set(tokens.map(stem));

  const instruction = readInstruction(systemPrompt);
  for (const { delta, flag, line } of [
    ...purposeRules(instruction, { intent, specific: SPECIFIC.has(intent), stems }),
    ...paymentRules(instruction, { amount, intent, senderName, narration }),
  ]) {
    draft.confidence += delta ?? 0;
    if (flag) draft.flags.add(flag);
    explanation.push(line);
  }

  const riskWords = fraudIn(tokens).filter((term) => {
    // Look-alikes a careful reader credits: a controlled medicine on a prescription, a refund of what a fraud took.
    if (CONTROLLED_MEDICINES.has(term) && isPrescribed(tokens))
      return !explanation.push(`${term.toLowerCase()} on a prescription or from a pharmacy: medicine, not a drug deal`);
    if (term === 'FRAUDULENT' && intent === 'refund' && undoesFraudulentDebit(tokens))
      return !explanation.push("a fraudulent debit refunded: the victim's money back");
    return true;
  });
  // A risk word raises a flag only when the rest of the narration does not explain it innocently.
  const { terms: fraud, shapes, lines } = inContext(riskWords, riskShapesIn(tokens, text), text);
  explanation.push(...lines);
  if (fraud.length > 0) {
    draft.flags.add('SUSPECTED_FRAUD');
    explanation.push(`fraud words: ${fraud.join(', ')}`);
  }
  if (shapes.length > 0) {
    draft.flags.add('SUSPECTED_FRAUD');
    explanation.push(`fraud by its shape: ${shapes.map((s) => s.shape).join('; ')}`);
  }
  // A racket's goods are bought, money passed on is a transfer: when the words named no purpose (or only the exam a leak is for).
  const shaped = shapes.find((s) => s.intent)?.intent;
  const [finalIntent, finalLabel] =
    shaped && shaped !== intent && ['payment', 'transfer', 'unknown', 'school_fees'].includes(intent)
      ? [shaped, LABEL_OF.get(shaped)!]
      : [intent, label];
  if (finalIntent !== intent) explanation.push(`what the shape says the money did: ${finalIntent}`);
  const romance = romanceIn(tokens);
  if (romance.length > 0) {
    draft.flags.add('SUSPECTED_FRAUD');
    explanation.push(`a romance scam's pattern: ${romance.join(' with ')}`);
  }
  applyMarkers(narration, draft);
  const { confidence, flags } = draft;

  return {
    raw_narration: narration,
    extracted_intent: finalIntent,
    confidence_score: round(confidence),
    flags: [...flags].sort(),
    suggested_label: finalLabel,
    explanation,
  };
}
