import { FRAUD_TERMS, GENERIC_TERMS, MONTHS, TOPICS, TRANSFER_TERMS } from './lexicon.js';
import { BUSINESS_WORDS, CHANNEL_WORDS, FILLER_WORDS, NAMES, REFERENCE_WORDS, TITLES } from './nigerian-words.js';
import { englishWords } from './word-list.js';

/**
 * What one token of a narration is. `word`, `local`, `filler`, `name`, `name-like`, `generic`,
 * `transfer` and `channel` are readable; `noise` is not; `neutral` tokens (numbers, codes with
 * digits, months, single letters) are neither.
 */
export type TokenKind =
  'word' | 'local' | 'name' | 'name-like' | 'generic' | 'transfer' | 'channel' | 'filler' | 'neutral' | 'noise';

const KEY_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];
const ROWS = [...KEY_ROWS, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
/** The keyboard's slanted columns, both ways ("qazwsx", "plmokn"). */
const COLUMNS = ['QAZ', 'WSX', 'EDC', 'RFV', 'TGB', 'YHN', 'UJM', 'RDZ', 'TFX', 'YGC', 'UHV', 'IJB', 'OKN', 'PLM'];
const VOWELS = /[AEIOU]/;
/**
 * Fraud words (and the words of fraud phrases) and the words of a prompt's topics are read, whatever
 * they look like: "MMM", the Ponzi scheme, is one key held down; "419", "1xbet" and "bet9ja" have
 * digits, and are still words.
 */
const KNOWN_WORDS = new Set([...FRAUD_TERMS, ...TOPICS.flat()].flatMap((t) => t.split(' ')));

/** A run of `length` neighbouring keys on one of the lines (a keyboard row or column, the alphabet), either way. */
function keyboardRuns(length: number, lines = ROWS): Set<string> {
  const runs = new Set<string>();
  for (const row of lines) {
    for (let i = 0; i + length <= row.length; i++) {
      const run = row.slice(i, i + length);
      runs.add(run);
      runs.add([...run].reverse().join(''));
    }
  }
  return runs;
}
const RUNS_OF_3 = keyboardRuns(3);
const RUNS_OF_4 = [...keyboardRuns(4)];
const KEY_RUNS_OF_3 = keyboardRuns(3, [...KEY_ROWS, ...COLUMNS]);

/**
 * One letter repeated, a short pattern repeated ("hdhdhd", "asdasd") or a keyboard run ("asdfgh",
 * "qwerty", "abcdef"), or six keys or more all in runs of three along the keyboard's rows and columns
 * ("plmokn", "qazwsx").
 */
export function typedNoise(token: string): string | undefined {
  if (/^(.)\1{2,}$/.test(token)) return 'one key held down';
  if (token.length >= 4 && repeatsUnit(token)) return 'a short pattern repeated';
  if (
    token.length >= 4 &&
    RUNS_OF_4.some((run) => token.includes(run)) &&
    token.length - coveredByRuns(token, RUNS_OF_3) <= 1
  )
    return 'a keyboard run';
  if (token.length >= 6 && KEY_RUNS_OF_3.has(token.slice(0, 3)) && coveredByRuns(token, KEY_RUNS_OF_3) === token.length)
    return 'a keyboard run';
  return undefined;
}

/** A pair of letters this rare in English words and Nigerian names together marks a token as noise. */
const RARE_PAIR = 20;
/** Names count this many times over: the list is short, and pairs like "kp", "gb" and "nw" are theirs. */
const NAME_WEIGHT = 50;
let namePairs: Map<string, number> | undefined;

function pairCount(a: string, b: string): number {
  if (!namePairs) {
    namePairs = new Map();
    for (const name of [...NAMES, ...TITLES]) {
      const padded = `^${name.toLowerCase()}$`;
      for (let i = 0; i + 1 < padded.length; i++)
        namePairs.set(padded.slice(i, i + 2), (namePairs.get(padded.slice(i, i + 2)) ?? 0) + 1);
    }
  }
  return englishWords().pairCount(a, b) + NAME_WEIGHT * (namePairs.get(a + b) ?? 0);
}

/** Not a word and cannot be said: no vowel, four consonants in a row, or a pair of letters words and names never have. */
export function unpronounceable(token: string): string | undefined {
  if (!VOWELS.test(token)) return 'no vowel';
  if (/[^AEIOUY]{4,}/.test(token)) return 'four consonants in a row';
  const padded = `^${token.toLowerCase()}$`;
  for (let i = 0; i + 1 < padded.length; i++) {
    // A doubled letter ("yy" in Dayyabu) is how Hausa writes a long consonant: not a sign of noise.
    if (padded[i] !== padded[i + 1] && pairCount(padded[i]!, padded[i + 1]!) < RARE_PAIR)
      return `"${padded.slice(i, i + 2).replace(/[\^$]/g, '')}" hardly occurs in words or names`;
  }
  return undefined;
}

/** Why a token is noise, for the explanation. */
export function noiseReason(token: string): string | undefined {
  return typedNoise(token) ?? unpronounceable(token);
}

function repeatsUnit(token: string): boolean {
  for (let unit = 1; unit <= 3 && unit * 2 <= token.length; unit++) {
    let same = true;
    for (let i = unit; i < token.length && same; i++) same = token[i] === token[i % unit];
    if (same) return true;
  }
  return false;
}

/** How many letters of the token lie in keyboard runs of three or more. */
function coveredByRuns(token: string, runs: ReadonlySet<string>): number {
  const covered = new Array<boolean>(token.length).fill(false);
  for (let i = 0; i + 3 <= token.length; i++) {
    if (runs.has(token.slice(i, i + 3))) covered[i] = covered[i + 1] = covered[i + 2] = true;
  }
  return covered.filter(Boolean).length;
}

/** Words of the local lexicon (pidgin, Yoruba, Igbo, Hausa, abbreviations) that are readable but carry no purpose of their own. */
const LOCAL_WORDS = new Set([
  'PIKIN',
  'MANAGE',
  'SETTLE',
  'OSU',
  'KETA',
  'IBI',
  'ILE',
  'EKE',
  'DAALU',
  'GODE',
  'NWANNE',
  'AHIA',
  'TXF',
  'CHG',
  'CHRG',
  'SVC',
  'BDAY',
  'FESS',
]);

/**
 * Classifies one upper-case token. Order matters: the Nigerian lexicon first (names and pidgin that
 * no English list has), then the signs of noise (so "qwerty" and "zzz", which are in the English list,
 * are still noise), then the English word list, and last anything pronounceable, taken for a name.
 */
export function classifyToken(token: string, senderWords: ReadonlySet<string>): TokenKind {
  if (
    (/\d/.test(token) && !KNOWN_WORDS.has(token)) ||
    MONTHS.has(token) ||
    REFERENCE_WORDS.has(token) ||
    token.length === 1
  )
    return 'neutral';
  if (GENERIC_TERMS.has(token)) return 'generic';
  if (TRANSFER_TERMS.has(token)) return 'transfer';
  if (CHANNEL_WORDS.has(token)) return 'channel';
  if (FILLER_WORDS.has(token)) return 'filler';
  if (LOCAL_WORDS.has(token)) return 'local';
  if (NAMES.has(token) || TITLES.has(token) || BUSINESS_WORDS.has(token) || senderWords.has(token)) return 'name';
  if (KNOWN_WORDS.has(token)) return 'word';
  if (typedNoise(token)) return 'noise';
  if (englishWords().has(token.toLowerCase())) return 'word';
  return unpronounceable(token) ? 'noise' : 'name-like';
}
