import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Db } from '../../src/engine/db/database.js';
import { openDatabase } from '../../src/engine/db/open.js';
import { createDeveloper } from '../../src/engine/developers/developers.service.js';
import { authenticate, hashKey, issueKey } from '../../src/engine/developers/keys.js';
import type { EngineEnv } from '../../src/engine/env.js';
import { seededIds } from '../../src/engine/ids.js';
import { claimKey, completeKey, IDEMPOTENCY_TTL_MS, releaseInterrupted } from '../../src/engine/idempotency/idempotency.service.js';
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
    await expect(authenticate(db, 'svc_live_abc')).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('live keys') });
  });
});

describe('sandbox clock', () => {
  it('keeps its offset across a restart of the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-clock-'));
    const dbPath = join(dir, 'sandbox.db');
    const realNow = () => Date.parse('2026-11-21T09:30:00.000Z');
    try {
      const first = await openSandbox({ dbPath, realNow });
      await first.advanceClock(90);
      expect(first.clock.now().toISOString()).toBe('2026-11-21T09:31:30.000Z');
      const { apiKey } = await ensureSandboxDeveloper(first);
      await first.close();

      const second = await openSandbox({ dbPath, realNow });
      expect(second.clock.now().toISOString()).toBe('2026-11-21T09:31:30.000Z');
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

  it('only moves forward', async () => {
    const sandbox = await openSandbox({ dbPath: ':memory:' });
    await expect(sandbox.advanceClock(-5)).rejects.toThrow(/forward/);
    await sandbox.close();
  });
});

describe('idempotency keys', () => {
  const scope = { developerId: '', method: 'POST', path: '/v1/wallets', key: 'k1' };

  beforeEach(async () => {
    scope.developerId = (await db.transaction().execute((trx) => createDeveloper(trx, env, 'ACME'))).developer_id;
  });

  it('is IN_USE while the first request runs, then replays its response', async () => {
    expect(await claimKey(db, env, scope, 'h')).toEqual({ kind: 'claimed' });
    await expect(claimKey(db, env, scope, 'h')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    await completeKey(db, scope, 201, '{"success":true}');
    expect(await claimKey(db, env, scope, 'h')).toEqual({ kind: 'replay', status: 201, body: '{"success":true}' });
    await expect(claimKey(db, env, scope, 'other')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('drops claims of requests that died with the process, so their retry runs afresh', async () => {
    await claimKey(db, env, scope, 'h');
    await claimKey(db, env, { ...scope, key: 'k2' }, 'h');
    await completeKey(db, { ...scope, key: 'k2' }, 200, '{}');
    expect(await releaseInterrupted(db)).toBe(1);
    expect(await claimKey(db, env, scope, 'h')).toEqual({ kind: 'claimed' });
    expect(await claimKey(db, env, { ...scope, key: 'k2' }, 'h')).toEqual({ kind: 'replay', status: 200, body: '{}' });
  });

  it('forgets a key after 24 hours on the sandbox clock', async () => {
    await claimKey(db, env, scope, 'h');
    await completeKey(db, scope, 200, '{}');
    clock.advance(IDEMPOTENCY_TTL_MS / 1000);
    expect(await claimKey(db, env, scope, 'different')).toEqual({ kind: 'claimed' });
  });
});
