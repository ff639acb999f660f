import { GENERIC_TERMS, INTENTS, TRANSFER_TERMS } from './lexicon.js';

/**
 * Reads a misspelt or squeezed lexicon word as the word it stands for: statements are typed in a hurry
 * ("tution", "upkep", "sallary") and squeezed into 30 characters by dropping vowels ("slry", "trnsprt",
 * "refnd"), cut short ("supp", "accom"), and Hausa joins a word to the next with -n or -r ("albashin watan nan", "kudin makarantar").
 * Only tokens that are neither a lexicon word, an English word nor a known name are read this way
 * (the caller decides that); the answer must be one lexicon word, or nothing.
 */

const skeleton = (word: string) => word.replace(/[AEIOU]/g, '');
const deletions = (word: string) => Array.from(word, (_, i) => word.slice(0, i) + word.slice(i + 1));

/** `word` under `key`, once. */
function add(map: Map<string, string[]>, key: string, word: string): void {
  const words = map.get(key);
  if (!words) map.set(key, [word]);
  else if (!words.includes(word)) words.push(word);
}

interface Indexes {
  /** The words a token can be read as: single-word intent terms, generic payment words and transfer words. */
  known: Set<string>;
  /** By consonant skeleton, for words of at least three consonants. */
  bySkeleton: Map<string, string[]>;
  /** By the word and each of its one-letter deletions, for words of five letters or more. */
  byDeletion: Map<string, string[]>;
  /** What a word of the vocabulary means: the intents it is a term of, or generic, or transfer. */
  meaning: Map<string, string>;
  /**
   * By each beginning of four letters or more, for words of five letters or more: narrations cut at 30 or 50
   * characters, abbreviations ("supp", "accom", "reimb").
   */
  byPrefix: Map<string, string[]>;
  /** The two-word lexicon phrases. */
  pairs: Set<string>;
  /** The phrases' words by each word and its one-letter deletions. */
  pairWords: Map<string, string[]>;
  /** The phrases' second words by their beginnings. */
  secondByPrefix: Map<string, string[]>;
}

let built: Indexes | undefined;

/**
 * The indexes, built on first use: most narrations are read without them, and a sandbox or a
 * scenario run that reads none never pays for them (about 16 ms of every start, when they were built
 * as the module loaded).
 */
function indexes(): Indexes {
  if (built) return built;
  const vocabulary = [
    ...new Set([...INTENTS.flatMap((i) => i.terms.map(([t]) => t)), ...GENERIC_TERMS, ...TRANSFER_TERMS]),
  ].filter((t) => /^[A-Z]{4,}$/.test(t));
  const bySkeleton = new Map<string, string[]>();
  const byDeletion = new Map<string, string[]>();
  const byPrefix = new Map<string, string[]>();
  for (const word of vocabulary) {
    if (skeleton(word).length >= 3) add(bySkeleton, skeleton(word), word);
    if (word.length >= 5) for (const key of [word, ...deletions(word)]) add(byDeletion, key, word);
    for (let n = 4; n < word.length; n++) add(byPrefix, word.slice(0, n), word);
  }
  const meaning = new Map<string, string>();
  const addMeaning = (word: string, what: string) =>
    meaning.set(word, meaning.has(word) ? `${meaning.get(word)} ${what}` : what);
  INTENTS.forEach((i) => i.terms.forEach(([t]) => addMeaning(t, i.intent)));
  GENERIC_TERMS.forEach((t) => addMeaning(t, 'payment'));
  TRANSFER_TERMS.forEach((t) => addMeaning(t, 'transfer'));
  const pairs = new Set<string>();
  const pairWords = new Map<string, string[]>();
  const secondByPrefix = new Map<string, string[]>();
  for (const [phrase] of INTENTS.flatMap((i) => i.terms)) {
    const pair = phrase.split(' ');
    if (pair.length !== 2 || !pair.every((w) => /^[A-Z]+$/.test(w))) continue;
    pairs.add(phrase);
    for (const word of pair) for (const key of [word, ...deletions(word)]) add(pairWords, key, word);
    for (let n = 2; n < pair[1]!.length; n++) add(secondByPrefix, pair[1]!.slice(0, n), pair[1]!);
  }
  built = { known: new Set(vocabulary), bySkeleton, byDeletion, meaning, byPrefix, pairs, pairWords, secondByPrefix };
  return built;
}

/** Whether `short` is `long` with some of its vowels left out, starting with the same letter. */
function vowelsDropped(short: string, long: string): boolean {
  if (short[0] !== long[0] || short.length >= long.length) return false;
  let i = 0;
  for (const letter of long) {
    if (letter === short[i]) i++;
    else if (!/[AEIOU]/.test(letter)) return false;
  }
  return i === short.length;
}

/** One letter added, left out, changed, or two neighbours swapped (optimal string alignment distance 1). */
function oneSlip(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return (
      a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
    );
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const only = (words: string[]) => (new Set(words).size === 1 ? words[0] : undefined);

/** The shortest of some words, when they all mean the same ("supp": SUPPLY, SUPPLIES). */
function sameMeaning(words: string[] | undefined): string | undefined {
  const { meaning } = indexes();
  if (!words || words.length === 0 || new Set(words.map((w) => meaning.get(w))).size !== 1) return undefined;
  return words.reduce((a, b) => (b.length < a.length ? b : a));
}

/** The shortest word a token begins, when every word it begins means the same. */
const cutShort = (token: string) => sameMeaning(indexes().byPrefix.get(token));

/** The lexicon word an unknown upper-case token stands for, if exactly one fits. */
export function spelledAs(token: string): string | undefined {
  if (!/^[A-Z]{3,}$/.test(token)) return undefined;
  const { known, bySkeleton, byDeletion } = indexes();
  // A letter held down ("renttt", "feees", "thankss"): no lexicon word has a letter three times running.
  if (/(.)\1\1/.test(token)) {
    const double = token.replace(/(.)\1{2,}/g, '$1$1');
    const single = token.replace(/(.)\1{2,}/g, '$1');
    return known.has(double) ? double : known.has(single) ? single : (spelledAs(double) ?? spelledAs(single));
  }
  const linked = token.slice(0, -1);
  if (/[NR]$/.test(token) && known.has(linked) && linked.length >= 4) return linked;
  // "upkp" squeezes UPKEEP and its spelling UPKIP: words that all mean the same are one reading.
  const squeezes = (bySkeleton.get(skeleton(token)) ?? []).filter((w) => vowelsDropped(token, w));
  if (sameMeaning(squeezes)) return squeezes[0];
  if (token.length >= 5) {
    const near = only(
      [...new Set([token, ...deletions(token)].flatMap((key) => byDeletion.get(key) ?? []))].filter((w) =>
        oneSlip(token, w),
      ),
    );
    if (near) return near;
  }
  return cutShort(token);
}

/** Words of the phrases a token may be: itself, or (four letters or more) one slip from one; the last token of a narration may also be cut short. */
function pairWords(token: string, last: boolean): string[] {
  const { pairWords: byWord, secondByPrefix } = indexes();
  const near = [...new Set([token, ...deletions(token)].flatMap((key) => byWord.get(key) ?? []))].filter(
    (w) => w === token || (token.length >= 4 && oneSlip(token, w)),
  );
  return last ? [...near, ...(secondByPrefix.get(token) ?? [])] : near;
}

/**
 * Two neighbouring tokens read as a lexicon phrase they misspell or cut short: "shool fess" is SCHOOL
 * FEES, a narration cut at "house ren" HOUSE RENT. The phrase must be the only one they can be.
 * @example spelledPair('SHOOL', 'FESS', true) // ['SCHOOL', 'FEES']
 */
export function spelledPair(first: string, second: string, last: boolean): [string, string] | undefined {
  if (!/^[A-Z]+$/.test(first) || !/^[A-Z]{2,}$/.test(second)) return undefined;
  const { pairs } = indexes();
  const found = pairWords(first, false).flatMap((a) =>
    pairWords(second, last)
      .filter((b) => pairs.has(`${a} ${b}`))
      .map((b) => `${a} ${b}`),
  );
  const phrase = only(found);
  return phrase === undefined || phrase === `${first} ${second}` ? undefined : (phrase.split(' ') as [string, string]);
}
