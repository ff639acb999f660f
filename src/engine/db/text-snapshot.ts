import { closeSync, createReadStream, openSync, readSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type Kysely, sql } from 'kysely';
import { snapshotInvalid } from './snapshot-files.js';

/**
 * Tables a snapshot leaves out: the request log is an observation of the sandbox, not its state
 * (decisions: Request log), and its real times would make two saves of one state differ.
 */
const NOT_IN_SNAPSHOTS = new Set(['request_log', 'request_counters']);

/**
 * Text snapshots (decisions: Text snapshots): the whole sandbox as JSON Lines, readable in a code
 * review and loadable into any backend. Nothing here knows the backend: what differs (which tables
 * there are, their keys and column types, the AUTOINCREMENT counters) comes through a
 * `SnapshotSchema`.
 *
 * The file, one JSON value a line, every line ending in "\n":
 *   {"format":"ledger-sandbox-snapshot","version":1,"schema":"<the last migration applied>"}
 *   {"table":"<name>","row":{<every column, in the table's column order>}}   (tables parents first, rows by primary key)
 *   {"sequence":"<table>","value":<its AUTOINCREMENT counter>}               (by table name; only where it is ahead of the rows)
 *   {"end":"ledger-sandbox-snapshot"}                                         (a file cut short has none)
 * Integers are JSON numbers, but one beyond ±(2^53 − 1) (a system account's balance can be) is a
 * string of its digits; BLOB columns are lowercase hex strings.
 */

export const TEXT_SNAPSHOT_FORMAT = 'ledger-sandbox-snapshot';
export const TEXT_SNAPSHOT_VERSION = 1;

export type ColumnKind = 'integer' | 'real' | 'text' | 'blob';

export interface TableInfo {
  name: string;
  /** In the table's own order: the order of every row object's keys. */
  columns: { name: string; kind: ColumnKind }[];
  /** The primary key's columns, in key order: rows are written sorted by them. */
  key: string[];
}

/** What a text snapshot needs to know of a backend's schema. */
export interface SnapshotSchema {
  /** Every table a snapshot holds, parents before the tables whose foreign keys name them (ties by name). */
  tables(db: Kysely<any>): Promise<TableInfo[]>;
  /**
   * The AUTOINCREMENT counters (the next row of a table numbers after them) that are ahead of the
   * table's largest key (rows were deleted: a reset). Elsewhere the counter is that key, as loading
   * the rows leaves it, so a new row changes no counter line.
   */
  sequences(db: Kysely<any>): Promise<{ table: string; value: number }[]>;
  /** Puts those counters back, after every row is in. */
  setSequences(db: Kysely<any>, sequences: { table: string; value: number }[]): Promise<void>;
}

export interface TextSnapshotHeader {
  format: typeof TEXT_SNAPSHOT_FORMAT;
  version: number;
  /** The last migration the schema had: the rows fit the schema those migrations made. */
  schema: string;
}

/** The first line of a text snapshot. */
export const headerLine = (schema: string): string =>
  JSON.stringify({ format: TEXT_SNAPSHOT_FORMAT, version: TEXT_SNAPSHOT_VERSION, schema });

/** Whether `head` (the first bytes of a file) starts like a text snapshot rather than a database file. */
export const looksLikeText = (head: Buffer): boolean => head.length > 0 && head[0] === 0x7b; // '{'

const SQLITE_HEADER = Buffer.from('SQLite format 3\0');
/** Room for a text snapshot's header line, many times over. */
const HEADER_BYTES = 4096;

/**
 * What a snapshot file is, told by its first bytes whatever its name: a text snapshot (its header
 * parsed, SNAPSHOT_INVALID on `field` when line 1 is not one), a SQLite database file, or neither.
 */
export function sniffSnapshot(
  file: string,
  field: string,
): { format: 'json'; header: TextSnapshotHeader } | { format: 'sqlite' } | undefined {
  const fd = openSync(file, 'r');
  let start: Buffer;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    start = buffer.subarray(0, readSync(fd, buffer, 0, HEADER_BYTES, 0));
  } finally {
    closeSync(fd);
  }
  if (start.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return { format: 'sqlite' };
  if (!looksLikeText(start)) return undefined;
  const end = start.indexOf(0x0a);
  return {
    format: 'json',
    header: parseHeader(start.subarray(0, end === -1 ? start.length : end).toString('utf8'), field),
  };
}

/** The header of a text snapshot, from its first line; SNAPSHOT_INVALID on `field` naming line 1 when it is not one. */
export function parseHeader(line: string, field: string): TextSnapshotHeader {
  const header = parseLine(line, 1, field);
  if (header.format !== TEXT_SNAPSHOT_FORMAT || typeof header.schema !== 'string') {
    throw invalidLine(
      field,
      1,
      `is not the header of a ledger sandbox snapshot (${JSON.stringify({ format: TEXT_SNAPSHOT_FORMAT, version: TEXT_SNAPSHOT_VERSION, schema: '…' })})`,
    );
  }
  if (header.version !== TEXT_SNAPSHOT_VERSION)
    throw invalidLine(
      field,
      1,
      `has format version ${JSON.stringify(header.version)}; this version of ledger reads version ${TEXT_SNAPSHOT_VERSION}`,
    );
  return header as unknown as TextSnapshotHeader;
}

const invalidLine = (field: string, line: number, problem: string) =>
  snapshotInvalid(field, `line ${line} ${problem.split(' (')[0]}`, `line ${line} ${problem}`);

function parseLine(text: string, line: number, field: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidLine(field, line, `is not a JSON object (the file may be cut short or edited by hand)`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidLine(field, line, 'is not a JSON object');
  return value as Record<string, unknown>;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An integer read exactly (as the text of its digits) written as a JSON number, or as that text beyond ±(2^53 − 1). */
function integerValue(digits: string): number | string {
  const exact = BigInt(digits);
  return exact > MAX_SAFE || exact < -MAX_SAFE ? exact.toString() : Number(exact);
}

/** Rows read at a time while writing. */
const READ_CHUNK = 2_000;
/** Bytes gathered before each write. */
const WRITE_CHUNK = 1 << 20;

/**
 * Writes the database `db` reads as a text snapshot to `target` (an empty file), in one read: call
 * it inside one transaction. Omits the `settings` rows named in `omitSettings` (those that describe
 * a binary snapshot file rather than the sandbox). Returns the number of records written.
 * @example await reader.transaction().execute((trx) => writeTextSnapshot(trx, sqliteSchema, '/tmp/base.jsonl.tmp'));
 */
export async function writeTextSnapshot(
  db: Kysely<any>,
  schema: SnapshotSchema,
  target: string,
  omitSettings: string[] = [],
): Promise<number> {
  const fd = openSync(target, 'a');
  let pending = '';
  const put = (line: string) => {
    pending += `${line}\n`;
    if (pending.length >= WRITE_CHUNK) {
      writeSync(fd, pending);
      pending = '';
    }
  };
  try {
    const { rows: migrations } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
    // Code unit order, as the migrator sorts them.
    const last = migrations.map((m) => m.name).reduce((a, b) => (b > a ? b : a), '');
    put(headerLine(last));
    let records = 0;
    for (const table of await schema.tables(db)) {
      if (NOT_IN_SNAPSHOTS.has(table.name)) continue;
      // Integers as text: the driver would round one beyond 2^53 (a system account's balance).
      const selections = table.columns.map((c) =>
        c.kind === 'integer'
          ? sql<string | null>`CAST(${sql.ref(c.name)} AS TEXT)`.as(c.name)
          : sql.ref(c.name).as(c.name),
      );
      let query = db.selectFrom(table.name).select(selections);
      if (table.name === 'settings' && omitSettings.length > 0) query = query.where('key', 'not in', omitSettings);
      // By the column, not the selection of the same name (a CAST to text would sort 10 before 9).
      for (const key of table.key) query = query.orderBy(sql.ref(`${table.name}.${key}`));
      for await (const found of query.stream(READ_CHUNK)) {
        const row: Record<string, unknown> = {};
        for (const column of table.columns)
          row[column.name] = encodeValue(column.kind, (found as Record<string, unknown>)[column.name]);
        put(JSON.stringify({ table: table.name, row }));
        records++;
      }
    }
    for (const { table, value } of [...(await schema.sequences(db))].sort((a, b) =>
      a.table < b.table ? -1 : a.table > b.table ? 1 : 0,
    )) {
      put(JSON.stringify({ sequence: table, value }));
      records++;
    }
    put(JSON.stringify({ end: TEXT_SNAPSHOT_FORMAT }));
    writeSync(fd, pending);
    return records;
  } finally {
    closeSync(fd);
  }
}

function encodeValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value)) return integerValue(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'bigint') return integerValue(value.toString());
  return value;
}

/** A row's value checked against its column and made ready for the driver; a string saying what is wrong when it does not fit. */
function decodeValue(kind: ColumnKind, value: unknown): { ok: true; value: unknown } | { ok: false; expected: string } {
  if (value === null) return { ok: true, value };
  switch (kind) {
    case 'integer':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return { ok: true, value };
      if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) return { ok: true, value: BigInt(value) };
      return { ok: false, expected: 'an integer (a JSON number, or a string of digits beyond 2^53 − 1)' };
    case 'real':
      return typeof value === 'number' ? { ok: true, value } : { ok: false, expected: 'a number' };
    case 'text':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, expected: 'a string' };
    case 'blob':
      return typeof value === 'string' && /^(?:[0-9a-f]{2})*$/.test(value)
        ? { ok: true, value: Buffer.from(value, 'hex') }
        : { ok: false, expected: 'lowercase hex' };
  }
}

/** Parameters in one INSERT, well under SQLite's 32,766 and PostgreSQL's 65,535. */
const PARAMETERS_PER_INSERT = 8_000;

/**
 * The lines of the file at `file`, read only once the caller starts iterating: a readline
 * interface made earlier reads on while the caller awaits other work (a query over the network),
 * and the lines it reads before anyone listens are lost, and with them its end.
 * @example await loadTextSnapshot(trx, sqliteSchema, fileLines(file), 'file');
 */
export async function* fileLines(file: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    yield* lines;
  } finally {
    lines.close();
  }
}

/**
 * Loads the lines of a text snapshot (`lines`, from its header on) into `db`, whose schema is the
 * one its header names and whose tables are empty: call it inside one transaction, so that it loads
 * whole or not at all. Rows go in with parameterised multi-row INSERTs built from the column list,
 * in the file's order (parents first: foreign keys hold as each row arrives). Anything that is not
 * what a snapshot holds is SNAPSHOT_INVALID on `field` naming its line: a line that is not JSON or
 * not a record, an unknown table or column, a value of the wrong kind, a row the schema refuses
 * (a duplicate key, a missing parent), a file that ends before its end line or goes on after it.
 * @example await db.transaction().execute((trx) => loadTextSnapshot(trx, sqliteSchema, fileLines(file), 'file'));
 */
export async function loadTextSnapshot(
  db: Kysely<any>,
  schema: SnapshotSchema,
  lines: AsyncIterable<string>,
  field: string,
): Promise<void> {
  const tables = new Map((await schema.tables(db)).map((t) => [t.name, t]));
  const sequences: { table: string; value: number }[] = [];
  let batch: { table: TableInfo; rows: unknown[][]; first: number } | undefined;
  let number = 0;
  let ended = false;

  const flush = async () => {
    if (!batch || batch.rows.length === 0) return;
    const { table, rows, first } = batch;
    batch = undefined;
    const columns = sql.join(table.columns.map((c) => sql.ref(c.name)));
    const insert = (values: unknown[][]) =>
      sql`INSERT INTO ${sql.table(table.name)} (${columns}) VALUES ${sql.join(values.map((v) => sql`(${sql.join(v)})`))}`.execute(
        db,
      );
    // A savepoint, so that the row the schema refuses can be found and named (PostgreSQL ends a
    // transaction at its first error; SQLite ends only the statement).
    await sql`SAVEPOINT text_snapshot_rows`.execute(db);
    try {
      await insert(rows);
      await sql`RELEASE SAVEPOINT text_snapshot_rows`.execute(db);
      return;
    } catch {
      await sql`ROLLBACK TO SAVEPOINT text_snapshot_rows`.execute(db);
    }
    for (const [i, values] of rows.entries()) {
      try {
        await insert([values]);
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT text_snapshot_rows`.execute(db).catch(() => {});
        throw invalidLine(field, first + i, `is a ${table.name} row the schema refuses (${(error as Error).message})`);
      }
    }
    await sql`RELEASE SAVEPOINT text_snapshot_rows`.execute(db);
  };

  for await (const raw of lines) {
    number++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (number === 1) {
      parseHeader(text, field);
      continue;
    }
    if (ended) {
      if (text.trim() === '') continue;
      throw invalidLine(field, number, 'comes after the end line');
    }
    const record = parseLine(text, number, field);
    if (typeof record.table === 'string' && 'row' in record && Object.keys(record).length === 2) {
      const table = tables.get(record.table);
      if (!table) throw invalidLine(field, number, `names a table this schema does not have (${record.table})`);
      const row = record.row;
      if (row === null || typeof row !== 'object' || Array.isArray(row))
        throw invalidLine(field, number, 'has a row that is not a JSON object');
      const values = rowValues(table, row as Record<string, unknown>, number, field);
      if (batch && batch.table !== table) await flush();
      batch ??= { table, rows: [], first: number };
      batch.rows.push(values);
      if (batch.rows.length * table.columns.length >= PARAMETERS_PER_INSERT) await flush();
    } else if (typeof record.sequence === 'string' && 'value' in record && Object.keys(record).length === 2) {
      if (!tables.has(record.sequence))
        throw invalidLine(field, number, `names a table this schema does not have (${record.sequence})`);
      if (!Number.isSafeInteger(record.value) || (record.value as number) < 0)
        throw invalidLine(field, number, 'has a sequence value that is not a whole number');
      sequences.push({ table: record.sequence, value: record.value as number });
    } else if (record.end === TEXT_SNAPSHOT_FORMAT && Object.keys(record).length === 1) {
      ended = true;
    } else {
      throw invalidLine(field, number, 'is neither a table row, a sequence nor the end line');
    }
  }
  if (number === 0) throw snapshotInvalid(field, 'is empty');
  if (!ended) throw invalidLine(field, number + 1, 'is missing: the file ends before its end line (it was cut short)');
  await flush();
  await schema.setSequences(db, sequences);
}

function rowValues(table: TableInfo, row: Record<string, unknown>, line: number, field: string): unknown[] {
  const known = new Set(table.columns.map((c) => c.name));
  const unknown = Object.keys(row).find((k) => !known.has(k));
  if (unknown !== undefined) throw invalidLine(field, line, `has a column ${table.name} does not have (${unknown})`);
  return table.columns.map((column) => {
    if (!(column.name in row)) throw invalidLine(field, line, `lacks the column ${table.name}.${column.name}`);
    const decoded = decodeValue(column.kind, row[column.name]);
    if (!decoded.ok) throw invalidLine(field, line, `has ${table.name}.${column.name} that is not ${decoded.expected}`);
    return decoded.value;
  });
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Tables in an order in which every foreign key names a table already listed (a table's own key aside); ties by name. */
export function parentsFirst(tables: Map<string, TableInfo & { parents: string[] }>): TableInfo[] {
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const waiting = [...tables.keys()].sort(byName);
  while (waiting.length > 0) {
    const next = waiting.findIndex((name) =>
      tables.get(name)!.parents.every((p) => p === name || placed.has(p) || !tables.has(p)),
    );
    // A cycle of foreign keys (none today) is written by name; its rows then need the backend to check keys at COMMIT.
    const [name] = waiting.splice(next === -1 ? 0 : next, 1);
    const { parents: _, ...table } = tables.get(name!)!;
    ordered.push(table);
    placed.add(name!);
  }
  return ordered;
}
