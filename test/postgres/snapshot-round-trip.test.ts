import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, onTestFinished } from 'vitest';
import { openStorage } from '../../src/engine/db/open-storage.js';
import type { Storage } from '../../src/engine/db/storage.js';
import { makeNuban } from '../../src/engine/wallets/nuban.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { createTestSandbox, createWallet, type TestSandbox, walletBody } from '../helpers/sandbox.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-round-trip-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A SQLite sandbox with money, events, deliveries, a suspense item, a payout and a note in it. */
async function busySqliteSandbox(): Promise<TestSandbox> {
  const t = await createTestSandbox({ dbPath: ':memory:', settlementDelaySeconds: 5 });
  onTestFinished(() => t.close());
  const ok = async (reply: Promise<{ status: number; body: unknown }>) =>
    expect((await reply).status).toBeOneOf([200, 201]);
  const a = await createWallet(t, 1_000_000);
  const b = await createWallet(t, 0);
  await ok(
    t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 123_45,
      narration: 'rent <b>&',
    }),
  );
  await ok(
    t.call('POST', '/sandbox/inbound-transfers', {
      account_number: b.account_number,
      amount: 7_000_00,
      narration: 'SANDBOX-RISK',
    }),
  );
  await ok(
    t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: makeNuban('058', '012345678'),
      destination_bank_code: '058',
      amount: 500_00,
    }),
  );
  // Another developer's wallet, then its reset: the counters are left ahead of the rows (the snapshot's sequence lines).
  const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body as {
    data: { api_key: string };
  };
  await ok(t.call('POST', '/v1/wallets', walletBody(), { key: other.data.api_key }));
  await ok(t.call('POST', '/sandbox/reset', undefined, { key: other.data.api_key }));
  return t;
}

/** Loads the text snapshot at `file` into `storage`, as a restore does, without the sandbox's key carrying. */
async function load(storage: Storage, file: string): Promise<void> {
  const prepared = await storage.snapshots.prepare(file, join(dir, 'work'), 'file');
  try {
    await storage.exclusive(() =>
      storage.snapshots.replace(prepared.path, {
        before: async () => {},
        after: async () => {},
        checkForeignKeys: true,
      }),
    );
  } finally {
    await storage.snapshots.discard(prepared.path);
  }
}

it('a text snapshot saved on SQLite, loaded on PostgreSQL and saved again there is the same bytes', async () => {
  const t = await busySqliteSandbox();
  const fromSqlite = join(dir, 'sqlite.jsonl');
  await t.sandbox.storage.snapshots.copy(fromSqlite, { saved_at: '2026-11-21T09:30:00.000Z' }, 'json');

  const database = await createTestDatabase();
  onTestFinished(database.drop);
  const storage = await openStorage({ location: database.url });
  onTestFinished(() => storage.close());
  await load(storage, fromSqlite);
  const fromPostgres = join(dir, 'postgres.jsonl');
  await storage.snapshots.copy(fromPostgres, { saved_at: '2026-11-21T09:30:00.000Z' }, 'json');

  const [sqliteText, postgresText] = [readFileSync(fromSqlite, 'utf8'), readFileSync(fromPostgres, 'utf8')];
  // Every kind of row is there: money, the ledger, events and deliveries, a suspense item, a payout.
  expect(sqliteText).toContain('{"sequence":"wallets","value":');
  for (const table of ['accounts', 'entries', 'transactions', 'events', 'webhook_logs', 'suspense_items', 'payouts'])
    expect(sqliteText).toContain(`{"table":"${table}","row":`);
  expect(postgresText.split('\n')).toEqual(sqliteText.split('\n'));
  expect(Buffer.compare(readFileSync(fromPostgres), readFileSync(fromSqlite))).toBe(0);

  // And back: the PostgreSQL copy loads on SQLite and saves as the same bytes again.
  const again = await openStorage({ location: ':memory:' });
  onTestFinished(() => again.close());
  await load(again, fromPostgres);
  const backOnSqlite = join(dir, 'again.jsonl');
  await again.snapshots.copy(backOnSqlite, { saved_at: '2026-11-21T09:30:00.000Z' }, 'json');
  expect(Buffer.compare(readFileSync(backOnSqlite), readFileSync(fromSqlite))).toBe(0);
});

it('the identity counters come back with the rows: a row made after the load numbers after the snapshot', async () => {
  const t = await busySqliteSandbox();
  const file = join(dir, 'sqlite.jsonl');
  await t.sandbox.storage.snapshots.copy(file, { saved_at: '2026-11-21T09:30:00.000Z' }, 'json');
  const database = await createTestDatabase();
  onTestFinished(database.drop);
  const storage = await openStorage({ location: database.url });
  onTestFinished(() => storage.close());
  await load(storage, file);
  const top = await storage.db
    .selectFrom('postings')
    .select((eb) => eb.fn.max('seq').as('top'))
    .executeTakeFirstOrThrow();
  const { value: made } = await storage.write((trx) =>
    trx
      .insertInto('postings')
      .values({ developer_id: t.developerId, kind: 'TEST', created_at: 0 })
      .returning('seq')
      .executeTakeFirstOrThrow(),
  );
  expect(made.seq).toBe(Number(top.top) + 1);
});

it('a text snapshot of an older schema is refused on PostgreSQL, saying how to bring it up to date', async () => {
  const t = await busySqliteSandbox();
  const file = join(dir, 'sqlite.jsonl');
  await t.sandbox.storage.snapshots.copy(file, { saved_at: '2026-11-21T09:30:00.000Z' }, 'json');
  const [header, ...rest] = readFileSync(file, 'utf8').split('\n');
  const older = join(dir, 'older.jsonl');
  writeFileSync(
    older,
    [header!.replace(/"schema":"[^"]+"/, '"schema":"0023_transactions_by_time"'), ...rest].join('\n'),
  );
  const database = await createTestDatabase();
  onTestFinished(database.drop);
  const storage = await openStorage({ location: database.url });
  onTestFinished(() => storage.close());
  await expect(storage.snapshots.prepare(older, join(dir, 'work'), 'file')).rejects.toMatchObject({
    code: 'SNAPSHOT_INVALID',
    message: expect.stringContaining('restore it into a SQLite sandbox of this version and save it again'),
  });
  // Nothing of it is left in the database: no staging schema.
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name LIKE 'ledger_restore_%'`.execute(
    storage.db,
  );
  expect(rows[0]!.n).toBe(0);
});
