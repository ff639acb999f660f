import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { openDatabase } from '../../src/engine/db/sqlite/open.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import { authenticate, hashKey, issueKey } from '../../src/engine/developers/keys.js';
import type { EngineEnv } from '../../src/engine/env.js';
import { seededIds } from '../../src/engine/ids.js';
import {
  IDEMPOTENCY_TTL_MS,
  lookupKey,
  releaseInterrupted,
  storeKey,
} from '../../src/engine/idempotency/idempotency.service.js';
import { ensureSandboxDeveloper, openSandbox } from '../../src/sandbox/sandbox.js';

let db: Db;
let env: EngineEnv;
let clock: ManualClock;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  clock = new ManualClock();
  env = { clock, ids: seededIds('keys') };
});
afterEach(() => db.destroy());

describe('keys', () => {
  it('issues svc_test_ + 32 base62 characters and stores only a hash', async () => {
    const { api_key: key } = await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'));
    expect(key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    const rows = await db.selectFrom('api_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashKey(key));
    expect(JSON.stringify(rows)).not.toContain(key.slice(9));
  });

  it('rotation makes the old key fail at once', async () => {
    const created = await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'));
    const fresh = await db.transaction().execute((trx) => issueKey(trx, env, created.developer_id));
    await expect(authenticate(db, created.api_key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate(db, fresh)).resolves.toBe(created.developer_id);
  });

  it('refuses live keys with a message that says so', async () => {
    await expect(authenticate(db, 'svc_live_abc')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringContaining('live keys'),
    });
  });
});

describe('developer clocks', () => {
  it('each developer keeps its own offset, across a restart of the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-clock-'));
    const dbPath = join(dir, 'sandbox.db');
    const realNow = () => Date.parse('2026-11-21T09:30:00.000Z');
    try {
      const first = await openSandbox({ dbPath, realNow });
      const { apiKey, developerId } = await ensureSandboxDeveloper(first);
      const other = await first.write((trx) => createDeveloper(trx, first.envFor(developerId), 'OTHER'));
      await first.advanceClock(developerId, 90);
      expect(first.clockFor(developerId).now().toISOString()).toBe('2026-11-21T09:31:30.000Z');
      expect(first.clockFor(other.developer_id).now().toISOString()).toBe('2026-11-21T09:30:00.000Z');
      await first.close();

      const second = await openSandbox({ dbPath, realNow });
      expect(second.clockFor(developerId).now().toISOString()).toBe('2026-11-21T09:31:30.000Z');
      expect(second.clockFor(other.developer_id).now().toISOString()).toBe('2026-11-21T09:30:00.000Z');
      const again = await ensureSandboxDeveloper(second, apiKey);
      expect(again).toMatchObject({ apiKey, issued: false });
      const forgotten = await ensureSandboxDeveloper(second);
      expect(forgotten.issued).toBe(true);
      expect(forgotten.apiKey).not.toBe(apiKey);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a walk that fails midway leaves the clock at the new time it committed, not at the instant it reached', async () => {
    const sandbox = await openSandbox({ dbPath: ':memory:', clockStart: Date.parse('2026-11-21T09:30:00.000Z') });
    const { developerId } = await ensureSandboxDeveloper(sandbox);
    const walk = async (to: (instantMs: number) => boolean) => {
      expect(to(Date.parse('2026-11-21T09:30:02.000Z'))).toBe(true);
      throw new Error('failed at 09:30:02');
    };
    await expect(sandbox.advanceClock(developerId, 3_600, undefined, walk)).rejects.toThrow('failed at 09:30:02');
    expect(sandbox.clockFor(developerId).now().toISOString()).toBe('2026-11-21T10:30:00.000Z');
    await sandbox.close();
  });

  it('only moves forward', async () => {
    const sandbox = await openSandbox({ dbPath: ':memory:' });
    const { developerId } = await ensureSandboxDeveloper(sandbox);
    await expect(sandbox.advanceClock(developerId, -5)).rejects.toThrow(/forward/);
    await sandbox.close();
  });
});

describe('idempotency keys', () => {
  const scope = { developerId: '', method: 'POST', path: '/v1/wallets {}', key: 'k1' };

  beforeEach(async () => {
    scope.developerId = (await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'))).developer_id;
  });

  it('is new until an answer is stored, then replays it; another request with the key is REUSED', async () => {
    expect(await lookupKey(db, env, scope, 'h')).toEqual({ kind: 'new' });
    await storeKey(db, env, scope, 'h', 201, '{"success":true}');
    expect(await lookupKey(db, env, scope, 'h')).toEqual({ kind: 'replay', status: 201, body: '{"success":true}' });
    await expect(lookupKey(db, env, scope, 'other')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('drops IN_FLIGHT claims an earlier version left behind, so their retry runs afresh', async () => {
    await db
      .insertInto('idempotency_keys')
      .values({
        ...{ developer_id: scope.developerId, method: 'POST', path: scope.path, key: 'old' },
        request_hash: 'h',
        state: 'IN_FLIGHT',
        response_status: null,
        response_body: null,
        created_at: clock.now().toISOString(),
      })
      .execute();
    await storeKey(db, env, { ...scope, key: 'k2' }, 'h', 200, '{}');
    expect(await releaseInterrupted(db)).toBe(1);
    expect(await lookupKey(db, env, { ...scope, key: 'old' }, 'h')).toEqual({ kind: 'new' });
    expect(await lookupKey(db, env, { ...scope, key: 'k2' }, 'h')).toEqual({ kind: 'replay', status: 200, body: '{}' });
  });

  it('forgets a key after 24 hours on the developer clock, and a new answer replaces it', async () => {
    await storeKey(db, env, scope, 'h', 200, '{}');
    clock.advance(IDEMPOTENCY_TTL_MS / 1000);
    expect(await lookupKey(db, env, scope, 'different')).toEqual({ kind: 'new' });
    await storeKey(db, env, scope, 'different', 201, '{"b":1}');
    expect(await lookupKey(db, env, scope, 'different')).toEqual({ kind: 'replay', status: 201, body: '{"b":1}' });
  });
});
