import { sql } from 'kysely';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/engine/db/database.js';
import { closeDatabase, openDatabase } from '../../src/engine/db/sqlite/open.js';
import { prepare } from '../../src/engine/db/prepared.js';
import { putSetting } from '../../src/engine/settings/settings.repository.js';
import { uuidV7 } from '../../src/engine/ids.js';
import { createGroupCommit } from '../../src/engine/db/sqlite/group-commit.js';

let db: Db;
const settings = async () =>
  (await db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute()).map((r) => `${r.key}=${r.value}`);

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
});
afterEach(() => db.destroy());

describe('group commit', () => {
  it('writes queued together commit together, and one that fails rolls back alone with its own error', async () => {
    const { write } = createGroupCommit(db);
    const results = await Promise.allSettled([
      write((trx) => putSetting(trx, 'a', '1')),
      write(async (trx) => {
        await putSetting(trx, 'b', '2');
        throw new Error('b changed its mind');
      }),
      write(async (trx) => {
        await putSetting(trx, 'c', '3');
        // Same transaction: the first write is visible here before anything is committed.
        return (await trx.selectFrom('settings').select('value').where('key', '=', 'a').executeTakeFirst())?.value;
      }),
    ]);
    expect(results).toEqual([
      { status: 'fulfilled', value: { value: undefined, deliveries: [] } },
      { status: 'rejected', reason: new Error('b changed its mind') },
      { status: 'fulfilled', value: { value: '1', deliveries: [] } },
    ]);
    expect(await settings()).toEqual(['a=1', 'c=3']);
  });

  it('when the COMMIT itself fails, every write of the batch fails and none is kept', async () => {
    const { write } = createGroupCommit(db);
    const results = await Promise.allSettled([
      write((trx) => putSetting(trx, 'a', '1')),
      write(async (trx) => {
        // A deferred foreign key is checked at COMMIT, not when the savepoint is released.
        await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
        await trx
          .insertInto('api_keys')
          .values({ id: 'k', developer_id: 'nobody', key_hash: 'h', key_hint: 'x', created_at: 'now' })
          .execute();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(await settings()).toEqual([]);
    // The queue carries on after a failed batch.
    await write((trx) => putSetting(trx, 'z', '9'));
    expect(await settings()).toEqual(['z=9']);
  });

  it('drain() waits for every queued write', async () => {
    const { write, drain } = createGroupCommit(db);
    for (let i = 0; i < 100; i++) void write((trx) => putSetting(trx, `k${String(i).padStart(3, '0')}`, String(i)));
    await drain();
    expect((await settings()).length).toBe(100);
  });
});

describe('prepared queries', () => {
  const byKey = prepare((d, p: { key: string }) =>
    d.selectFrom('settings').select('value').where('key', '=', p.key).where('value', '!=', 'hidden'),
  );

  it('run with new values each time, keep the constants written into the query, and refuse a missing value', async () => {
    await putSetting(db, 'a', '1');
    await putSetting(db, 'b', 'hidden');
    expect((await byKey(db, { key: 'a' })).rows).toEqual([{ value: '1' }]);
    expect((await byKey(db, { key: 'b' })).rows).toEqual([]);
    await expect(byKey(db, {} as { key: string })).rejects.toThrow('prepared query: no value for key');
  });
});

describe('ids', () => {
  it('UUIDv7: version 7, RFC variant, and ids made later sort later', () => {
    const random = Buffer.alloc(16, 0xff);
    const early = uuidV7(Date.UTC(2026, 10, 21), random);
    const late = uuidV7(Date.UTC(2026, 10, 21) + 1, Buffer.alloc(16, 0));
    expect(early).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(early.slice(0, 13)).toBe('01a1fb67-1800');
    expect(early < late).toBe(true);
  });
});

describe('background checkpoints', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-checkpoint-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copy committed pages into the database file without the writer doing it, and close cleanly', async () => {
    const path = join(dir, 'ledger.db');
    const file = await openDatabase({ path, backgroundCheckpoints: true });
    const before = statSync(path).size;
    // Well under the writer's own checkpoint threshold: only the background thread can move these pages.
    for (let i = 0; i < 200; i++) await putSetting(file, `key-${i}`, 'x'.repeat(2000));
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 200 * 2000), {
      timeout: 10_000,
      interval: 20,
    });
    await closeDatabase(file);
    const reopened = await openDatabase({ path });
    expect(
      (
        await reopened
          .selectFrom('settings')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBe(200);
    await reopened.destroy();
  });
});
