import { type RawBuilder, sql } from 'kysely';
import type { Trx } from '../db/database.js';
import { prepare } from '../db/prepared.js';
import type { StoredId } from './events.table.js';

export type { StoredId };

// How events, delivery logs and attempts store what the API shows as text (migration 0020): their
// developer by its number (developers.seq), their event type by its code, their times as epoch
// milliseconds. Everything that reads or writes those rows goes through these, so the API sees the
// same ids, names and ISO times as before.

/** Contract §7's event types, each stored as its place here: append a new one, never reorder. */
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
const developerSeqById = prepare((db, p: { id: string }) => db.selectFrom('developers').select('seq').where('id', '=', p.id), { keptUntil: 'developers' });

/** The number a developer's events, logs and attempts name it by; -1 for an unknown developer (it matches no row). */
export async function developerSeq(trx: Trx, developerId: string): Promise<number> {
  return (await developerSeqById(trx, { id: developerId })).rows[0]?.seq ?? -1;
}

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An id as stored (see StoredId). */
export function storedId(id: string): StoredId {
  return CANONICAL_UUID.test(id) ? Buffer.from(id.replaceAll('-', ''), 'hex') : id;
}

/** A canonical UUID's shape as a LIKE pattern: 36 characters, dashes where a UUID has them. */
const UUID_SHAPE = [8, 4, 4, 4, 12].map((n) => '_'.repeat(n)).join('-');

/**
 * `storedId` in SQL, of a column that holds an id as text (migration 0020b; what the built-in
 * receiver kept names an event by its id). A canonical UUID is its shape (LIKE) with nothing but
 * lowercase hex digits left once the dashes go (ltrim, case-sensitive): both spelled alike on SQLite
 * and PostgreSQL, where GLOB is SQLite's own. `unhex` is SQLite's (PostgreSQL: `decode(…, 'hex')`).
 */
export const storedIdSql = (column: string): RawBuilder<StoredId> =>
  sql`CASE WHEN ${sql.ref(column)} LIKE ${UUID_SHAPE} AND ltrim(replace(${sql.ref(column)}, '-', ''), '0123456789abcdef') = '' THEN unhex(replace(${sql.ref(column)}, '-', '')) ELSE ${sql.ref(column)} END`;

/** A stored id as the API shows it. */
export function idText(stored: StoredId): string {
  if (typeof stored === 'string') return stored;
  const hex = stored.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
