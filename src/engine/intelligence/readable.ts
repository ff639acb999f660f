import { GENERIC_TERMS, MONTHS, TRANSFER_TERMS } from './lexicon.js';
import { CHANNEL_WORDS, FILLER_WORDS, NAMES, TITLES } from './nigerian-words.js';
import { englishWords } from './word-list.js';

/**
 * What one token of a narration is. `word`, `local`, `filler`, `name`, `name-like`, `generic`,
 * `transfer` and `channel` are readable; `noise` is not; `neutral` tokens (numbers, codes with
 * digits, months, single letters) are neither.
 */
export type TokenKind = 'word' | 'local' | 'name' | 'name-like' | 'generic' | 'transfer' | 'channel' | 'filler' | 'neutral' | 'noise';

const ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const VOWELS = /[AEIOU]/;

/** A run of `length` neighbouring keys on one keyboard row (or letters of the alphabet), either way. */
function keyboardRuns(length: number): Set<string> {
  const runs = new Set<string>();
  for (const row of ROWS) {
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

/** One letter repeated, a short pattern repeated ("hdhdhd", "asdasd") or a keyboard run ("asdfgh", "qwerty", "abcdef"). */
export function typedNoise(token: string): string | undefined {
  if (/^(.)\1{2,}$/.test(token)) return 'one key held down';
  if (token.length >= 4 && repeatsUnit(token)) return 'a short pattern repeated';
  if (token.length >= 4 && RUNS_OF_4.some((run) => token.includes(run)) && token.length - coveredByRuns(token) <= 1) return 'a keyboard run';
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
      for (let i = 0; i + 1 < padded.length; i++) namePairs.set(padded.slice(i, i + 2), (namePairs.get(padded.slice(i, i + 2)) ?? 0) + 1);
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
    if (padded[i] !== padded[i + 1] && pairCount(padded[i]!, padded[i + 1]!) < RARE_PAIR) return `"${padded.slice(i, i + 2).replace(/[\^$]/g, '')}" hardly occurs in words or names`;
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
function coveredByRuns(token: string): number {
  const covered = new Array<boolean>(token.length).fill(false);
  for (let i = 0; i + 3 <= token.length; i++) {
    if (RUNS_OF_3.has(token.slice(i, i + 3))) covered[i] = covered[i + 1] = covered[i + 2] = true;
  }
  return covered.filter(Boolean).length;
}

/** Words of the local lexicon (pidgin, Yoruba, Igbo, Hausa, abbreviations) that are readable but carry no purpose of their own. */
const LOCAL_WORDS = new Set(['PIKIN', 'MANAGE', 'SETTLE', 'OSU', 'KETA', 'IBI', 'ILE', 'EKE', 'DAALU', 'GODE', 'NWANNE', 'AHIA', 'TXF', 'CHG', 'CHRG', 'SVC', 'BDAY', 'FESS']);

/**
 * Classifies one upper-case token. Order matters: the Nigerian lexicon first (names and pidgin that
 * no English list has), then the signs of noise (so "qwerty" and "zzz", which are in the English list,
 * are still noise), then the English word list, and last anything pronounceable, taken for a name.
 */
export function classifyToken(token: string, senderWords: ReadonlySet<string>): TokenKind {
  if (/\d/.test(token) || MONTHS.has(token) || token.length === 1) return 'neutral';
  if (GENERIC_TERMS.has(token)) return 'generic';
  if (TRANSFER_TERMS.has(token)) return 'transfer';
  if (CHANNEL_WORDS.has(token)) return 'channel';
  if (FILLER_WORDS.has(token)) return 'filler';
  if (LOCAL_WORDS.has(token)) return 'local';
  if (NAMES.has(token) || TITLES.has(token) || senderWords.has(token)) return 'name';
  if (typedNoise(token)) return 'noise';
  if (englishWords().has(token.toLowerCase())) return 'word';
  return unpronounceable(token) ? 'noise' : 'name-like';
}
