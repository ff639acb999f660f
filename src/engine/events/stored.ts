import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { prepare } from '../db/prepared.js';
import type { StoredId } from './events.table.js';

export type { StoredId };

// How events, delivery logs and attempts store what the API shows as text (migration 0020): their
// developer by its number (developers.seq), their event type by its code, their times as epoch
// milliseconds. Everything that reads or writes those rows goes through these, so the API sees the
// same ids, names and ISO times as before.

/** The event types (decisions: Webhooks), each stored as its place here: append a new one, never reorder. */
export const EVENT_TYPE_CODES = [
  'ledger.credit',
  'ledger.debit',
  'transfer.completed',
  'transfer.failed',
  'suspense.created',
  'suspense.resolved',
  'agent.triggered',
  'agent.failed',
  'wallet.closed',
] as const;

/** An event type's stored code; -1 for a name that is none (it matches no row). */
export const typeCode = (type: string): number => (EVENT_TYPE_CODES as readonly string[]).indexOf(type);

/** The event type a stored code stands for. */
export function typeName(code: number): string {
  const type = EVENT_TYPE_CODES[code];
  if (type === undefined) throw new Error(`no event type has the code ${code}`);
  return type;
}

/** An ISO time as stored (epoch ms). */
export const storedTimeOrNull = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));
/** A stored time as the API shows it (ISO text, as the clock's Date gives it). */
export const isoTime = (ms: number): string => new Date(ms).toISOString();
export const isoTimeOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

// Kept in memory by the connection (until a developer row changes): every event written asks for it.
const developerSeqById = prepare(
  (db, p: { id: string }) => db.selectFrom('developers').select('seq').where('id', '=', p.id),
  { keptUntil: 'developers' },
);

/** The number a developer's events, logs and attempts name it by; -1 for an unknown developer (it matches no row). */
export async function developerSeq(trx: Trx, developerId: string): Promise<number> {
  return (await developerSeqById(trx, { id: developerId })).rows[0]?.seq ?? -1;
}

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An id as stored in `db` (see StoredId): a canonical UUID as its 16 bytes; any other id as its
 * text on SQLite, and as its UTF-8 bytes on PostgreSQL, whose column is `bytea` (pg would send a
 * string as bytea's text input, which reads backslashes as escapes).
 */
export function storedId(db: Kysely<any>, id: string): StoredId {
  if (CANONICAL_UUID.test(id)) return Buffer.from(id.replaceAll('-', ''), 'hex');
  return isPostgres(db) ? Buffer.from(id, 'utf8') : id;
}

/** A canonical UUID's shape as a LIKE pattern: 36 characters, dashes where a UUID has them. */
const UUID_SHAPE = [8, 4, 4, 4, 12].map((n) => '_'.repeat(n)).join('-');

/**
 * `storedId` in SQL, of a column that holds an id as text (migration 0020b; what the built-in
 * receiver kept names an event by its id). A canonical UUID is its shape (LIKE) with nothing but
 * lowercase hex digits left once the dashes go (ltrim, case-sensitive): both spelled alike on SQLite
 * and PostgreSQL, where GLOB is SQLite's own. Its bytes: `unhex` on SQLite, `decode(…, 'hex')` on
 * PostgreSQL, where any other id is its UTF-8 bytes (`convert_to`) rather than its text.
 */
export function storedIdSql(db: Kysely<any>, column: string): RawBuilder<StoredId> {
  const id = sql.ref(column);
  const canonical = sql`${id} LIKE ${UUID_SHAPE} AND ltrim(replace(${id}, '-', ''), '0123456789abcdef') = ''`;
  if (isPostgres(db))
    return sql`CASE WHEN ${canonical} THEN decode(replace(${id}, '-', ''), 'hex') ELSE convert_to(${id}, 'UTF8') END`;
  return sql`CASE WHEN ${canonical} THEN unhex(replace(${id}, '-', '')) ELSE ${id} END`;
}

/** A stored id as the API shows it: 16 bytes are a canonical UUID; other bytes (PostgreSQL) and text are the id's own text. */
export function idText(stored: StoredId): string {
  if (typeof stored === 'string') return stored;
  if (stored.length !== 16) return stored.toString('utf8');
  const hex = stored.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
