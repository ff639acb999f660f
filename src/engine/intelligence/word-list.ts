import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';

/**
 * The `word-list` package's ~274,000 English words (one lower-case word a line), held as the file's
 * bytes plus an open-addressing table of line offsets, and the count of each letter pair: about 5 MB
 * and 20 ms to load, where a Set of the same words costs 20 MB of heap and 100 ms. Loaded on first
 * use, so only a process that analyses a narration (the server) ever reads it.
 */
export interface WordList {
  has(word: string): boolean;
  /** How many words hold the letter pair `ab` (lower case; '^' and '$' stand for the word's start and end). */
  pairCount(a: string, b: string): number;
  readonly size: number;
}

/** a..z are 0..25; the word boundary is 26. */
const letterIndex = (code: number) => (code >= 97 && code <= 122 ? code - 97 : 26);
const charIndex = (c: string) => (c === '^' || c === '$' ? 26 : letterIndex(c.charCodeAt(0)));

const NEWLINE = 10;

/** FNV-1a over the bytes of one line (or the char codes of a lower-case ASCII word: the same). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Builds the table from a newline-separated list of lower-case ASCII words. */
export function wordListFrom(bytes: Uint8Array): WordList {
  let lines = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === NEWLINE) lines++;
  let capacity = 1;
  while (capacity < lines * 2 + 2) capacity <<= 1;
  const mask = capacity - 1;
  // Each slot holds a line's start offset + 1 (0 is empty).
  const slots = new Int32Array(capacity);
  const pairs = new Uint32Array(27 * 27);
  let size = 0;
  for (let start = 0; start < bytes.length;) {
    let end = start;
    while (end < bytes.length && bytes[end] !== NEWLINE) end++;
    if (end > start) {
      let previous = 26;
      for (let i = start; i < end; i++) {
        const current = letterIndex(bytes[i]!);
        pairs[previous * 27 + current]!++;
        previous = current;
      }
      pairs[previous * 27 + 26]!++;
      let slot = hashBytes(bytes, start, end) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = start + 1;
      size++;
    }
    start = end + 1;
  }
  const matches = (offset: number, word: string) => {
    for (let i = 0; i < word.length; i++) if (bytes[offset + i] !== word.charCodeAt(i)) return false;
    const after = offset + word.length;
    return after === bytes.length || bytes[after] === NEWLINE;
  };
  return {
    size,
    pairCount: (a, b) => pairs[charIndex(a) * 27 + charIndex(b)]!,
    has(word) {
      if (!/^[a-z]+$/.test(word)) return false;
      for (let slot = hashWord(word) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
        if (matches(slots[slot]! - 1, word)) return true;
      }
      return false;
    },
  };
}

let english: WordList | undefined;

/** The English word list, read from the `word-list` package the first time it is asked for. */
export function englishWords(): WordList {
  english ??= wordListFrom(readFileSync(wordListPath));
  return english;
}
