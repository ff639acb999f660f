import { type RawBuilder, sql } from 'kysely';

/**
 * What a search text can stand for, read once: its words (for names and narrations), and, when it
 * is written in hex (dashes allowed), the ids it can be the start of. Every matcher reads these.
 */
export interface SearchTerms {
  /** The text as given, trimmed. */
  text: string;
  /** Its words, lower-cased: each must appear in a name or narration for it to match. */
  words: string[];
  /** The text as hex digits, lower-cased, without dashes, when it has at least MIN_ID_HEX of them and nothing else. */
  hex: string | undefined;
}

/** Fewer hex digits than this name too many ids to be worth resolving (git's shortest abbreviation is 4 too). */
export const MIN_ID_HEX = 4;
/** The random tail of a UUIDv7 as printed: its last group, 12 hex digits. Its head is the creation time. */
export const TAIL_HEX = 12;
/** A provider reference matches by its start only from this many characters: shorter starts are shared by most references. */
export const MIN_REFERENCE_PREFIX = 6;

export function searchTerms(q: string): SearchTerms {
  const text = q.trim();
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const digits = text.replaceAll('-', '').toLowerCase();
  const hex = /^[0-9a-f]+$/.test(digits) && digits.length >= MIN_ID_HEX && digits.length <= 32 ? digits : undefined;
  return { text, words, hex };
}

const dashed = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * Ids (stored as canonical lower-case text) that start with `hex`, or whose random tail does: the
 * start is a range on the id's unique index; the tail, a scan of the rows the caller's filter keeps.
 */
export function idMatchesText(column: string, hex: string): RawBuilder<boolean> {
  const head = sql<boolean>`(${sql.ref(column)} >= ${dashed(hex.padEnd(32, '0'))} AND ${sql.ref(column)} <= ${dashed(hex.padEnd(32, 'f'))})`;
  if (hex.length > TAIL_HEX) return head;
  return sql<boolean>`(${head} OR substr(${sql.ref(column)}, ${36 - TAIL_HEX + 1}, ${hex.length}) = ${hex})`;
}

/**
 * idMatchesText for ids stored as 16 bytes (events and delivery logs: events/stored.ts). The tail
 * is compared as bytes (a range over the bytes its hex digits cover, an odd last digit standing for
 * any low half), which `substr` and blob order read alike on SQLite and PostgreSQL; `hex()` is SQLite's.
 */
export function idMatchesBlob(column: string, hex: string): RawBuilder<boolean> {
  const bytes = (text: string) => Buffer.from(text, 'hex');
  const head = sql<boolean>`(${sql.ref(column)} >= ${bytes(hex.padEnd(32, '0'))} AND ${sql.ref(column)} <= ${bytes(hex.padEnd(32, 'f'))})`;
  if (hex.length > TAIL_HEX) return head;
  const width = Math.ceil(hex.length / 2);
  const tail = sql`substr(${sql.ref(column)}, ${16 - TAIL_HEX / 2 + 1}, ${width})`;
  return sql<boolean>`(${head} OR (${tail} >= ${bytes(hex.padEnd(width * 2, '0'))} AND ${tail} <= ${bytes(hex.padEnd(width * 2, 'f'))}))`;
}

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `value` holds `text` anywhere, its `%`, `_` and `\` meaning themselves, ignoring case. Both sides
 * are lower-cased in SQL (SQLite's LIKE ignores ASCII case, PostgreSQL's does not), by the
 * database's own `lower`, so a column and the text fold alike.
 */
export function containsText(value: RawBuilder<unknown> | string, text: string): RawBuilder<boolean> {
  const expression = typeof value === 'string' ? sql.ref(value) : value;
  return sql<boolean>`lower(${expression}) LIKE '%' || lower(${likeEscaped(text)}) || '%' ESCAPE '\\'`;
}

/** Every word appears in `value`, ignoring case. */
export function hasWords(value: RawBuilder<string> | string, words: string[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(
    words.map((word) => containsText(value, word)),
    sql` AND `,
  )})`;
}

/** A provider reference given whole, or its start from MIN_REFERENCE_PREFIX characters (ignoring case). */
export function referenceMatches(column: string, text: string): RawBuilder<boolean> {
  if (text.length < MIN_REFERENCE_PREFIX || /\s/.test(text)) return sql<boolean>`${sql.ref(column)} = ${text}`;
  return sql<boolean>`lower(${sql.ref(column)}) LIKE lower(${likeEscaped(text)}) || '%' ESCAPE '\\'`;
}

/** A 10-digit account number (NUBAN): matched whole only. */
export const isAccountNumber = (text: string) => /^\d{10}$/.test(text);
