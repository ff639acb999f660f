import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, onTestFinished, test } from 'vitest';
import { columnTypes, seqKey } from '../../src/engine/db/migrations/columns.js';
import { migrateToLatest } from '../../src/engine/db/migrations/index.js';
import { openStorage } from '../../src/engine/db/open-storage.js';
import { postgresKysely } from '../helpers/postgres-kysely.js';

/** A table as both backends can state it: what a row may hold, what must be unique, what it points at. */
interface Table {
  columns: { name: string; kind: string; notNull: boolean; default: string | null; autoNumber: boolean }[];
  primaryKey: string[];
  unique: string[][];
  indexes: Record<string, { columns: string[]; unique: boolean; where: string | null }>;
  foreignKeys: string[];
  checks: string[];
}
type Schema = Record<string, Table>;

/** An expression with the spelling the two catalogues differ in taken out: case, parentheses, spaces, quotes, PostgreSQL's casts. */
const expression = (text: string): string =>
  text
    .toLowerCase()
    .replace(/::[a-z]+/g, '')
    .replace(/!=/g, '<>')
    .replace(/[()\s"]/g, '');

// A column's kind as SQLite declares it (every integer is kobo-safe there), and as PostgreSQL must to be the same.
const SQLITE_KINDS: Record<string, string> = { integer: 'integer', bigint: 'integer', text: 'text', blob: 'blob' };
const POSTGRES_KINDS: Record<string, string> = { bigint: 'integer', text: 'text', bytea: 'blob' };
const ACTIONS: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};
const foreignKey = (from: string[], table: string, to: string[], onUpdate: string, onDelete: string) =>
  `${from.join(',')} -> ${table}(${to.join(',')}) on update ${onUpdate} on delete ${onDelete}`;
const sorted = <T>(items: T[]): T[] => items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** The text of each `CHECK (…)` in a CREATE TABLE statement, its parentheses balanced. */
function checksIn(create: string): string[] {
  const found: string[] = [];
  for (let at = create.search(/\bCHECK\s*\(/i); at >= 0;) {
    const open = create.indexOf('(', at);
    let depth = 0;
    let end = open;
    do depth += create[end] === '(' ? 1 : create[end] === ')' ? -1 : 0;
    while (depth > 0 && ++end < create.length);
    found.push(expression(create.slice(open + 1, end)));
    const next = create.slice(end).search(/\bCHECK\s*\(/i);
    at = next < 0 ? -1 : end + next;
  }
  return found;
}

async function sqliteSchema(db: Kysely<any>): Promise<Schema> {
  const schema: Schema = {};
  const { rows: tables } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
    WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\\' AND name NOT LIKE 'kysely\_%' ESCAPE '\\'`.execute(
    db,
  );
  for (const { name: table, sql: create } of tables) {
    const { rows: columns } = await sql<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>`
      SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(${table}) ORDER BY cid`.execute(db);
    const primaryKey = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    // A lone INTEGER PRIMARY KEY is the rowid: numbered by SQLite when an insert gives none.
    const rowid =
      primaryKey.length === 1 && columns.find((c) => c.pk > 0)!.type.toUpperCase() === 'INTEGER'
        ? primaryKey[0]
        : undefined;
    const { rows: list } = await sql<{ name: string; unique: number; origin: string }>`
      SELECT name, "unique", origin FROM pragma_index_list(${table})`.execute(db);
    const unique: string[][] = [];
    const indexes: Table['indexes'] = {};
    for (const index of list) {
      const { rows: keys } = await sql<{
        name: string;
      }>`SELECT name FROM pragma_index_info(${index.name}) ORDER BY seqno`.execute(db);
      const names = keys.map((k) => k.name);
      if (index.origin === 'u') unique.push(names);
      if (index.origin !== 'c') continue;
      const { rows: made } = await sql<{
        sql: string;
      }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ${index.name}`.execute(db);
      const where = /\bWHERE\b(.*)$/is.exec(made[0]!.sql)?.[1];
      // Every entry of a non-unique index ends in the rowid, so the index lists rows in rowid order within its columns.
      if (rowid && !index.unique && names.at(-1) !== rowid) names.push(rowid);
      indexes[index.name] = { columns: names, unique: index.unique === 1, where: where ? expression(where) : null };
    }
    const { rows: references } = await sql<{
      id: number;
      table: string;
      from: string;
      to: string;
      on_update: string;
      on_delete: string;
    }>`
      SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(${table}) ORDER BY id, seq`.execute(
      db,
    );
    const foreignKeys = [...new Set(references.map((r) => r.id))].map((id) => {
      const parts = references.filter((r) => r.id === id);
      return foreignKey(
        parts.map((p) => p.from),
        parts[0]!.table,
        parts.map((p) => p.to),
        parts[0]!.on_update,
        parts[0]!.on_delete,
      );
    });
    schema[table] = {
      columns: columns.map((c) => ({
        name: c.name,
        kind: SQLITE_KINDS[c.type.toLowerCase()] ?? `sqlite ${c.type}`,
        // SQLite lets a primary key other than the rowid hold NULL (an old quirk); nothing stores one.
        notNull: c.notnull === 1 || c.pk > 0,
        default: c.dflt_value === null ? null : expression(c.dflt_value),
        autoNumber: c.name === rowid,
      })),
      primaryKey,
      unique: sorted(unique),
      indexes,
      foreignKeys: sorted(foreignKeys),
      checks: sorted(checksIn(create)),
    };
  }
  return schema;
}

interface PgColumn {
  attnum: number;
  name: string;
  type: string;
  not_null: boolean;
  default: string | null;
  identity: string;
  collation: string | null;
}

async function pgColumns(db: Kysely<any>, table: number): Promise<PgColumn[]> {
  const { rows } = await sql<PgColumn>`
    SELECT a.attnum, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
      pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity AS identity, co.collname AS collation
    FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
    WHERE a.attrelid = ${table} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`.execute(db);
  return rows;
}

async function pgTables(db: Kysely<any>): Promise<{ oid: number; name: string }[]> {
  const { rows } = await sql<{ oid: number; name: string }>`SELECT c.oid::int AS oid, c.relname AS name FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname NOT LIKE 'kysely\_%'`.execute(
    db,
  );
  return rows;
}

async function postgresSchema(db: Kysely<any>): Promise<Schema> {
  const schema: Schema = {};
  for (const { oid, name: table } of await pgTables(db)) {
    const columns = await pgColumns(db, oid);
    const named = (keys: number[]) => keys.map((key) => columns.find((c) => c.attnum === key)!.name);
    const { rows: constraints } = await sql<{
      type: string;
      keys: number[];
      ref: string | null;
      ref_keys: number[] | null;
      on_update: string;
      on_delete: string;
      def: string;
      ref_oid: number;
    }>`
      SELECT contype AS type, conkey AS keys, confrelid::regclass::text AS ref, confrelid::int AS ref_oid, confkey AS ref_keys,
        confupdtype AS on_update, confdeltype AS on_delete, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE conrelid = ${oid}`.execute(db);
    const foreignKeys: string[] = [];
    for (const fk of constraints.filter((c) => c.type === 'f')) {
      const target = await pgColumns(db, fk.ref_oid);
      const to = fk.ref_keys!.map((key) => target.find((c) => c.attnum === key)!.name);
      foreignKeys.push(foreignKey(named(fk.keys), fk.ref!, to, ACTIONS[fk.on_update]!, ACTIONS[fk.on_delete]!));
    }
    const { rows: list } = await sql<{ name: string; unique: boolean; where: string | null; keys: number[] }>`
      SELECT i.relname AS name, x.indisunique AS unique, pg_get_expr(x.indpred, x.indrelid) AS where, x.indkey::int2[] AS keys
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = ${oid} AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype IN ('p', 'u'))`.execute(
      db,
    );
    const primaryKey = constraints.find((c) => c.type === 'p');
    schema[table] = {
      columns: columns.map((c) => ({
        name: c.name,
        kind: POSTGRES_KINDS[c.type] ?? `postgres ${c.type}`,
        notNull: c.not_null,
        default: c.default === null ? null : expression(c.default),
        autoNumber: c.identity !== '',
      })),
      primaryKey: primaryKey ? named(primaryKey.keys) : [],
      unique: sorted(constraints.filter((c) => c.type === 'u').map((c) => named(c.keys))),
      indexes: Object.fromEntries(
        list.map((i) => [
          i.name,
          { columns: named(i.keys), unique: i.unique, where: i.where === null ? null : expression(i.where) },
        ]),
      ),
      foreignKeys: sorted(foreignKeys),
      checks: sorted(constraints.filter((c) => c.type === 'c').map((c) => expression(c.def.replace(/^CHECK/, '')))),
    };
  }
  return schema;
}

async function migratedSqlite(): Promise<Schema> {
  const storage = await openStorage({ location: ':memory:' });
  onTestFinished(() => storage.close());
  return sqliteSchema(storage.db);
}

async function migratedPostgres(): Promise<Kysely<any>> {
  const [db] = await postgresKysely();
  await migrateToLatest(db!);
  return db!;
}

describe('the PostgreSQL schema', () => {
  test('is SQLite’s in meaning: columns, keys, unique sets, indexes, foreign keys and checks', async () => {
    const [sqlite, postgres] = await Promise.all([migratedSqlite(), migratedPostgres().then(postgresSchema)]);
    // Not two empty schemas that agree: every table, and the shapes the rules below rest on.
    expect(Object.keys(sqlite).length).toBeGreaterThanOrEqual(24);
    expect(sqlite.accounts!.checks).toEqual(['floor_zero=0orbalance>=0']);
    expect(sqlite.accounts!.indexes.accounts_system_kind).toEqual({
      columns: ['developer_id', 'kind'],
      unique: true,
      where: "kind<>'wallet'",
    });
    expect(postgres).toEqual(sqlite);
  });

  test('compares text as SQLite does, and takes a row’s own seq as readily as it numbers one', async () => {
    const db = await migratedPostgres();
    const columns = (
      await Promise.all(
        (await pgTables(db)).map(async (t) => (await pgColumns(db, t.oid)).map((c) => ({ ...c, table: t.name }))),
      )
    ).flat();
    expect(columns.filter((c) => c.type === 'text' && c.collation !== 'C').map((c) => `${c.table}.${c.name}`)).toEqual(
      [],
    );
    expect(
      columns.filter((c) => !['text', 'bigint', 'bytea'].includes(c.type)).map((c) => `${c.table}.${c.name} ${c.type}`),
    ).toEqual([]);
    // By default, not always: a text snapshot loads its rows with their seqs.
    expect([...new Set(columns.filter((c) => c.identity !== '').map((c) => c.identity))]).toEqual(['d']);
    await sql`INSERT INTO webhook_urls (seq, url) VALUES (41, 'https://b.example')`.execute(db);
    await sql`INSERT INTO webhook_urls (url) VALUES ('https://a.example')`.execute(db);
    const { rows } = await sql<{
      seq: number;
      url: string;
    }>`SELECT seq, url FROM webhook_urls ORDER BY url DESC`.execute(db);
    expect(rows).toEqual([
      { seq: 41, url: 'https://b.example' },
      { seq: 1, url: 'https://a.example' },
    ]);
    // Bytewise, as SQLite sorts: 'Z' (0x5A) before 'a' (0x61), whatever the database's locale says.
    await sql`INSERT INTO settings (key, value) VALUES ('a', '1'), ('Z', '2'), ('é', '3'), ('b', '4')`.execute(db);
    const { rows: keys } = await sql<{ key: string }>`SELECT key FROM settings ORDER BY key`.execute(db);
    expect(keys.map((k) => k.key)).toEqual(['Z', 'a', 'b', 'é']);
  });

  test('a migration written once, with columnTypes and seqKey, changes both schemas alike', async () => {
    // As a next migration would be: a table of its own and a column added to one the baseline made.
    const up = async (db: Kysely<any>) => {
      const t = columnTypes(db);
      await db.schema
        .createTable('wallet_notes')
        .addColumn('seq', t.integer, seqKey(db))
        .addColumn('wallet_id', t.text, (c) => c.notNull().references('wallets.id'))
        .addColumn('amount', t.integer, (c) => c.notNull().defaultTo(0))
        .addColumn('digest', t.bytes, (c) => c.unique())
        .addColumn('note', t.text)
        .execute();
      await db.schema.createIndex('wallet_notes_wallet').on('wallet_notes').columns(['wallet_id', 'seq']).execute();
      await db.schema.alterTable('settings').addColumn('changed_at', t.integer).execute();
    };
    const sqlite = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    onTestFinished(() => sqlite.destroy());
    const postgres = await migratedPostgres();
    await migrateToLatest(sqlite);
    await Promise.all([up(sqlite), up(postgres)]);
    const [a, b] = await Promise.all([sqliteSchema(sqlite), postgresSchema(postgres)]);
    expect(a.wallet_notes!.columns.map((c) => [c.name, c.kind, c.autoNumber])).toEqual([
      ['seq', 'integer', true],
      ['wallet_id', 'text', false],
      ['amount', 'integer', false],
      ['digest', 'blob', false],
      ['note', 'text', false],
    ]);
    expect(b).toEqual(a);
    const { rows } = await sql<{ collation: string }>`SELECT collation_name AS collation FROM information_schema.columns
      WHERE table_name = 'wallet_notes' AND column_name = 'note'`.execute(postgres);
    expect(rows).toEqual([{ collation: 'C' }]);
  });

  test('a column or an index missing on PostgreSQL is a difference the comparison names', async () => {
    const db = await migratedPostgres();
    await sql`ALTER TABLE suspense_items DROP COLUMN resolution_note`.execute(db);
    await sql`DROP INDEX webhook_logs_due`.execute(db);
    const [sqlite, postgres] = await Promise.all([migratedSqlite(), postgresSchema(db)]);
    expect(postgres).not.toEqual(sqlite);
    expect(postgres.suspense_items!.columns.map((c) => c.name)).toEqual(
      sqlite.suspense_items!.columns.map((c) => c.name).filter((n) => n !== 'resolution_note'),
    );
    expect(
      Object.keys(sqlite.webhook_logs!.indexes).filter((name) => !(name in postgres.webhook_logs!.indexes)),
    ).toEqual(['webhook_logs_due']);
  });
});
