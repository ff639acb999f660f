import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { prepare } from '../../src/engine/db/prepared.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import { authenticate, issueKey, knownKeyOwner } from '../../src/engine/developers/keys.js';
import type { EngineEnv } from '../../src/engine/env.js';
import { seededIds } from '../../src/engine/ids.js';
import { getEndpoint, rotateSecret, setEndpointUrl } from '../../src/engine/events/webhooks.service.js';

// Reads kept in memory by the connection (prepare's `keptUntil`): the API-key lookup and a
// wallet's agents, asked on every request and every transfer. They must never answer from a
// state the database no longer holds.

const liveKeys = prepare(
  (db, p: { developerId: string }) =>
    db
      .selectFrom('api_keys')
      .select('key_hint')
      .where('developer_id', '=', p.developerId)
      .where('revoked_at', 'is', null),
  {
    keptUntil: 'api_keys',
  },
);

let dir: string;
let db: Db;
let env: EngineEnv;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-kept-'));
  db = await openDatabase({ path: join(dir, 'kept.db') });
  env = { clock: new ManualClock(), ids: seededIds('kept') };
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const hints = async (developerId: string) => (await liveKeys(db, { developerId })).rows.map((r) => r.key_hint);

describe('kept reads', () => {
  it('are answered from memory: a change made behind the connection (another one) is not seen', async () => {
    const { developer_id: developerId, api_key: key } = await db
      .transaction()
      .execute((trx) => createDeveloper(trx, env, 'ACME'));
    expect(await authenticate(db, key)).toBe(developerId);
    // Only this connection writes in the sandbox; a second one here shows the read is kept.
    const other = new SQLite(join(dir, 'kept.db'));
    other.prepare('UPDATE api_keys SET revoked_at = ?').run('2026-01-01T00:00:00.000Z');
    other.close();
    expect(await authenticate(db, key)).toBe(developerId);
    // Any change to the table on this connection forgets them.
    await db.updateTable('api_keys').set({ key_hint: 'x' }).where('id', '=', 'none').execute();
    await expect(authenticate(db, key)).resolves.toBe(developerId);
    await db.updateTable('api_keys').set({ key_hint: 'changed' }).where('developer_id', '=', developerId).execute();
    await expect(authenticate(db, key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a rotated key is refused at once, the new one taken', async () => {
    const { developer_id: developerId, api_key: old } = await db
      .transaction()
      .execute((trx) => createDeveloper(trx, env, 'ACME'));
    expect(await authenticate(db, old)).toBe(developerId);
    const fresh = await db.transaction().execute((trx) => issueKey(trx, env, developerId));
    await expect(authenticate(db, old)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await authenticate(db, fresh)).toBe(developerId);
  });

  it('a removed developer key is refused at once (a cascade or a plain delete)', async () => {
    const { developer_id: developerId, api_key: key } = await db
      .transaction()
      .execute((trx) => createDeveloper(trx, env, 'ACME'));
    expect(await authenticate(db, key)).toBe(developerId);
    await db.deleteFrom('api_keys').execute();
    await expect(authenticate(db, key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a rollback forgets what was read inside it: a change undone is not kept', async () => {
    const { developer_id: developerId } = await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'));
    const before = await hints(developerId);
    expect(before).toHaveLength(1);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('api_keys').set({ revoked_at: 'now' }).execute();
        expect((await liveKeys(trx, { developerId: developerId })).rows).toEqual([]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await hints(developerId)).toEqual(before);
    // The same through a savepoint rolled back (as group commit undoes one failed write of a batch).
    await db.transaction().execute(async (trx) => {
      await sql`savepoint one`.execute(trx);
      await trx.updateTable('api_keys').set({ revoked_at: 'now' }).execute();
      expect((await liveKeys(trx, { developerId: developerId })).rows).toEqual([]);
      await sql`rollback to savepoint one`.execute(trx);
      expect((await liveKeys(trx, { developerId: developerId })).rows.map((r) => r.key_hint)).toEqual(before);
    });
  });

  it('a developer’s webhook endpoint (read before every handover) follows a new URL and a rotated secret at once', async () => {
    const { developer_id: developerId } = await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'));
    const first = await getEndpoint(db, developerId);
    expect(first.url).toBeNull();
    await db.transaction().execute((trx) => setEndpointUrl(trx, developerId, 'https://example.com/hooks'));
    expect((await getEndpoint(db, developerId)).url).toBe('https://example.com/hooks');
    await db.transaction().execute((trx) => rotateSecret(trx, env, developerId));
    const rotated = await getEndpoint(db, developerId);
    expect([rotated.secret === first.secret, rotated.previous_secret]).toEqual([false, first.secret]);
  });

  it('hands out copies: a caller changing its rows changes no later answer', async () => {
    const { developer_id: developerId } = await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'));
    const [row] = (await liveKeys(db, { developerId: developerId })).rows;
    const hint = row!.key_hint;
    row!.key_hint = 'mine';
    expect(await hints(developerId)).toEqual([hint]);
  });

  it('outside a transaction, answer at once from committed rows while a transaction holds the connection, and wait for rows read inside one', async () => {
    const { developer_id: developerId, api_key: key } = await db
      .transaction()
      .execute((trx) => createDeveloper(trx, env, 'ACME'));
    expect(await authenticate(db, key)).toBe(developerId);
    const steps: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      // Read inside the transaction: rows that could be its own uncommitted writes, so a reader outside is not given them before COMMIT.
      expect((await liveKeys(trx, { developerId })).rows).toHaveLength(1);
      steps.push('read inside');
      await held;
      steps.push('committed');
    });
    await new Promise((resolve) => setImmediate(resolve));
    // The key was read before the transaction and its rows were not changed by it: answered now.
    const checked = authenticate(db, key).then((owner) =>
      steps.push(`key of ${owner === developerId ? 'ACME' : owner}`),
    );
    // The hints were read inside it: this read waits for the connection.
    const outside = hints(developerId).then((rows) => steps.push(`hints ${rows.join()}`));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([transaction, checked, outside]);
    expect(steps).toEqual(['read inside', 'key of ACME', 'committed', `hints ${key.slice(0, 13)}…${key.slice(-4)}`]);
  });

  it('knownKeyOwner answers only what the connection holds: nothing before a read, nothing once the key changed', async () => {
    const { developer_id: developerId, api_key: key } = await db
      .transaction()
      .execute((trx) => createDeveloper(trx, env, 'ACME'));
    expect(knownKeyOwner(db, key)).toBeUndefined();
    expect(await authenticate(db, key)).toBe(developerId);
    expect(knownKeyOwner(db, key)).toBe(developerId);
    // Refusals are authenticate's to give.
    expect(knownKeyOwner(db, undefined)).toBeUndefined();
    expect(knownKeyOwner(db, `svc_live_${key.slice(9)}`)).toBeUndefined();
    await expect(authenticate(db, 'svc_test_nobody')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(knownKeyOwner(db, 'svc_test_nobody')).toBeUndefined();
    const fresh = await db.transaction().execute((trx) => issueKey(trx, env, developerId));
    expect(knownKeyOwner(db, key)).toBeUndefined();
    expect(knownKeyOwner(db, fresh)).toBeUndefined();
    await expect(authenticate(db, key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(knownKeyOwner(db, key)).toBeUndefined();
  });
});
