import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveFile } from '../../src/client/save-file.js';
import { servingPid } from '../../src/client/served-database.js';
import { migrationProvider } from '../../src/engine/db/migrations/index.js';
import { injectStorageFault } from '../../src/engine/db/sqlite/open.js';
import { openServer } from '../../src/sandbox/server.js';
import {
  createTestSandbox,
  createWallet,
  expectCleanAudit,
  type TestSandbox,
  useSandbox,
  walletBody,
} from '../helpers/sandbox.js';
import { developerWithHangingEndpoint, within } from '../helpers/webhook-app.js';

const t = useSandbox({ auditAfter: true });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-snapshots-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Downloads the whole sandbox (GET /sandbox/database) into `file`, as `ledger sandbox snapshot save
 * --file` does on the caller's machine: the server itself writes only named snapshots.
 */
async function download(s: TestSandbox, file: string, key = s.key) {
  const r = await s.app.inject({ method: 'GET', url: '/sandbox/database', headers: { 'x-api-key': key } });
  if (r.statusCode === 200) await saveFile(file, r.rawPayload);
  return {
    status: r.statusCode,
    type: r.headers['content-type'],
    savedAt: r.headers['snapshot-saved-at'],
    length: Number(r.headers['content-length']),
    bytes: r.rawPayload.length,
    body: r.statusCode === 200 ? undefined : r.json(),
  };
}

/** What the owner can read of its books, to compare two states. */
async function view(s: TestSandbox, walletIds: string[]) {
  const seen: Record<string, unknown> = {};
  for (const url of [
    '/sandbox/wallets?limit=100',
    '/v1/suspense?limit=100',
    '/v1/agents?limit=100',
    '/v1/webhook-logs?limit=100',
    '/sandbox/receiver/events?limit=100',
    '/sandbox/clock',
    '/sandbox/webhook-endpoint',
  ]) {
    seen[url] = (await s.call('GET', url)).body;
  }
  for (const id of walletIds) seen[id] = (await s.call('GET', `/v1/wallets/${id}/transactions?limit=100`)).body;
  return seen;
}

describe('save and restore', () => {
  it('puts every row back as saved: balances, transactions, suspense, agents, deliveries, the clock and the ids that follow', async () => {
    const a = await createWallet(t, 90_000);
    const b = await createWallet(t);
    await t.call('POST', `/v1/wallets/${a.id}/agents`, {
      name: 'notify',
      trigger: 'ON_CREDIT',
      action: 'WEBHOOK_NOTIFY',
    });
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: a.account_number,
      amount: 700,
      narration: 'asdfgh',
    });
    const payout = (
      await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
        destination_account_number: '2222222222',
        destination_bank_code: '058',
        amount: 1_000,
      })
    ).body.data;
    const saved = await t.call('POST', '/sandbox/snapshots', { name: 'base' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      name: 'base',
      file: null,
      format: 'sqlite',
      size_bytes: expect.any(Number),
      saved_at: '2026-11-21T09:30:00.000Z',
    });
    const before = await view(t, [a.id, b.id]);
    const next = (await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'after-save' }))).body.data;

    // Everything changes after the save.
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 5_000,
    });
    await t.call('POST', `/sandbox/payouts/${payout.transaction_id}/settle`);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 3_600 });
    await t.call('POST', `/v1/wallets/${b.id}/close`);
    expect(await view(t, [a.id, b.id])).not.toEqual(before);

    const restored = await t.call('POST', '/sandbox/snapshots/base/restore');
    expect(restored.body.data).toEqual(saved.body.data);
    expect(await view(t, [a.id, b.id])).toEqual(before);
    expect((await t.call('GET', `/v1/transactions/${payout.transaction_id}`)).body.data.status).toBe('PENDING');
    // The seeded stream goes back too: the wallet made after the save is made again with the same id and number.
    const again = (await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'after-save' }))).body.data;
    expect([again.id, again.account_number]).toEqual([next.id, next.account_number]);
  });

  it('keeps keys working: the owner and other developers keep the keys they have now; a developer made after the save is gone', async () => {
    const other = (await t.call('POST', '/sandbox/developers', { business_name: 'Other' })).body.data;
    await t.call('POST', '/sandbox/snapshots', { name: 'base' });
    const rotated = (await t.call('POST', '/sandbox/keys/rotate', undefined, { key: other.api_key })).body.data.api_key;
    const late = (await t.call('POST', '/sandbox/developers', { business_name: 'Late' })).body.data;
    const ownerKey = (await t.call('POST', '/sandbox/keys/rotate')).body.data.api_key;

    expect((await t.call('POST', '/sandbox/snapshots/base/restore', undefined, { key: ownerKey })).status).toBe(200);
    expect((await t.call('GET', '/sandbox/keys', undefined, { key: ownerKey })).status).toBe(200);
    expect((await t.call('GET', '/sandbox/keys', undefined, { key: rotated })).body.data.developer_id).toBe(
      other.developer_id,
    );
    expect((await t.call('GET', '/sandbox/keys', undefined, { key: other.api_key })).status).toBe(401);
    expect((await t.call('GET', '/sandbox/keys', undefined, { key: late.api_key })).status).toBe(401);
    expect((await t.call('GET', '/sandbox/keys', undefined, { key: t.key })).status).toBe(401);
    t.key = ownerKey;
  });

  it('restores into another sandbox: the snapshot owner takes the keys of the owner that restores it', async () => {
    const w = await createWallet(t, 12_345);
    const file = join(dir, 'fixture.db');
    const downloaded = await download(t, file);
    expect(downloaded).toEqual({
      status: 200,
      type: 'application/vnd.sqlite3',
      savedAt: '2026-11-21T09:30:00.000Z',
      length: statSync(file).size,
      bytes: statSync(file).size,
      body: undefined,
    });
    const elsewhere = await createTestSandbox({ seed: 'elsewhere' });
    try {
      expect(elsewhere.developerId).not.toBe(t.developerId);
      expect((await elsewhere.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
      expect((await elsewhere.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(12_345);
      expect((await elsewhere.call('GET', '/sandbox/keys')).body.data.developer_id).toBe(t.developerId);
      expect((await elsewhere.call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
    } finally {
      await elsewhere.close();
    }
  });

  it('clears the receiver’s injected failures and resumes deliveries from the restored state', async () => {
    const listening = await createTestSandbox({ listen: true, seed: 'deliveries' });
    try {
      await createWallet(listening, 1_000);
      await listening.call('POST', '/sandbox/snapshots', { name: 'pending' });
      await listening.call('PUT', '/sandbox/receiver/behaviour', { status: 500, count: 5 });
      await listening.call('POST', '/sandbox/snapshots/pending/restore');
      expect((await listening.call('GET', '/sandbox/receiver/behaviour')).body.data).toEqual({
        status: 200,
        remaining: 0,
      });
      await listening.call('POST', '/sandbox/clock/advance', { seconds: 1 });
      expect((await listening.call('GET', '/v1/webhook-logs')).body.data.items).toEqual([
        expect.objectContaining({ status: 'DELIVERED', attempt_count: 1 }),
      ]);
    } finally {
      await listening.close();
    }
  });

  it('lists, deletes, and answers 404 for a name it does not have and 400 for a bad name, a missing or relative file or an Idempotency-Key', async () => {
    await t.call('POST', '/sandbox/snapshots', { name: 'b-second' });
    await t.call('POST', '/sandbox/snapshots', { name: 'a.first' });
    const listed = (await t.call('GET', '/sandbox/snapshots')).body.data;
    expect(listed).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(listed.items.map((s: { name: string }) => s.name)).toEqual(['a.first', 'b-second']);
    expect((await t.call('DELETE', '/sandbox/snapshots/a.first')).body.data).toEqual({
      name: 'a.first',
      deleted: true,
    });
    expect((await t.call('GET', '/sandbox/snapshots')).body.data.total).toBe(1);

    // It names the snapshot and where it looked.
    const missing = { code: 'NOT_FOUND', message: `snapshot "nope" not found in ${t.app.snapshots.dir}` };
    expect((await t.call('POST', '/sandbox/snapshots/nope/restore')).body.detail).toMatchObject(missing);
    expect((await t.call('DELETE', '/sandbox/snapshots/nope')).body.detail).toMatchObject(missing);
    expect((await t.call('POST', '/sandbox/snapshots', { name: '../escape' })).body.detail.fields).toEqual([
      { field: 'name', message: expect.stringMatching(/letters, digits/) },
    ]);
    expect((await t.call('POST', '/sandbox/snapshots', {})).status).toBe(400);
    expect((await t.call('POST', '/sandbox/snapshots/restore', { file: 'relative.db' })).body.detail.fields).toEqual([
      { field: 'file', message: expect.stringMatching(/absolute/) },
    ]);
    expect((await t.call('POST', '/sandbox/snapshots/restore', { file: join(dir, 'missing.db') })).status).toBe(400);
    const idempotent = await t.call(
      'POST',
      '/sandbox/snapshots',
      { name: 'k' },
      { headers: { 'idempotency-key': 'k1' } },
    );
    expect(idempotent.body.detail.fields).toEqual([
      { field: 'idempotency-key', message: expect.stringMatching(/restore replaces/) },
    ]);
  });

  it("writes only named snapshots in the server's own directory, and restores from no live sandbox's database", async () => {
    // The owner's key must not reach any file the server can write, such as another running sandbox's database.
    const otherPath = join(dir, 'other.db');
    const other = await createTestSandbox({ dbPath: otherPath, seed: 'other' });
    try {
      const theirs = await createWallet(other, 4_000);
      const { ino, size } = statSync(otherPath);
      for (const body of [{ file: otherPath }, { name: 'x', file: otherPath }]) {
        const r = await t.call('POST', '/sandbox/snapshots', body);
        expect([r.status, r.body.detail?.fields]).toEqual([
          400,
          expect.arrayContaining([{ field: 'file', message: 'unknown field' }]),
        ]);
      }
      for (const name of ['../other', '/tmp/x', '.hidden']) {
        expect((await t.call('POST', '/sandbox/snapshots', { name })).body.detail.fields).toEqual([
          { field: 'name', message: expect.stringMatching(/letters, digits/) },
        ]);
      }
      // Nor is it a snapshot to restore from while it serves: part of its state is in its WAL.
      const mine = await createWallet(t, 1_500);
      for (const file of [otherPath, `${otherPath}-wal`]) {
        const r = await t.call('POST', '/sandbox/snapshots/restore', { file });
        expect([file, r.status, r.body.detail?.fields]).toEqual([
          file,
          400,
          [
            {
              field: 'file',
              message:
                'is the database of another running sandbox: save a snapshot there (`ledger sandbox snapshot save`) and restore that',
            },
          ],
        ]);
      }
      expect((await t.call('GET', `/v1/wallets/${mine.id}`)).body.data.balance).toBe(1_500);
      expect([statSync(otherPath).ino, statSync(otherPath).size]).toEqual([ino, size]);
      expect(other.sandbox.lost()).toBeUndefined();
      expect((await other.call('GET', `/v1/wallets/${theirs.id}`)).body.data.balance).toBe(4_000);
      // A file is the caller's to write, from the download, which only the owner may take.
      const dev = (await t.call('POST', '/sandbox/developers', { business_name: 'Dev Two' })).body.data;
      const refused = await download(t, join(dir, 'theirs.db'), dev.api_key);
      expect([refused.status, refused.body.detail.code]).toEqual([403, 'FORBIDDEN']);
      expect(existsSync(join(dir, 'theirs.db'))).toBe(false);
      // The command line refuses to write its download over a database a live sandbox serves.
      expect([otherPath, `${otherPath}-wal`, `${otherPath}-shm`].map(servingPid)).toEqual([
        process.pid,
        process.pid,
        process.pid,
      ]);
      expect(servingPid(join(dir, 'other.db.copy'))).toBeUndefined();
    } finally {
      await other.close();
    }
    expect(servingPid(otherPath)).toBeUndefined();
  });

  it("refuses a restore from the sandbox's own database file with 400 on file, and changes nothing", async () => {
    // Read without its WAL, that file misses the latest commits.
    const dbPath = join(dir, 'live.db');
    const s = await createTestSandbox({ dbPath });
    try {
      const w = await createWallet(s, 1_000);
      const { ino } = statSync(dbPath);
      symlinkSync(dbPath, join(dir, 'link.db'));
      linkSync(dbPath, join(dir, 'hard.db'));
      // The main file lacks what the WAL holds: not a snapshot to restore, by any of its names.
      for (const file of [dbPath, `${dbPath}-wal`, join(dir, 'link.db'), `${dir}/./live.db`, join(dir, 'hard.db')]) {
        const r = await s.call('POST', '/sandbox/snapshots/restore', { file });
        expect([file, r.status, r.body.detail?.fields]).toEqual([
          file,
          400,
          [
            {
              field: 'file',
              message: "is the sandbox's own database or one of its files: a snapshot is a file of its own",
            },
          ],
        ]);
      }
      const restore = await s.call('POST', '/sandbox/snapshots/restore', { file: dbPath });
      expect([restore.status, restore.body.detail?.fields]).toEqual([
        400,
        [
          {
            field: 'file',
            message: "is the sandbox's own database or one of its files: a snapshot is a file of its own",
          },
        ],
      ]);
      expect(s.sandbox.lost()).toBeUndefined();
      expect(statSync(dbPath).ino).toBe(ino);
      expect(readdirSync(dir).filter((entry) => entry.includes('.tmp-'))).toEqual([]);
      // The server goes on: the wallet and a new write are there, and last.
      const credited = await s.call('POST', '/sandbox/inbound-transfers', {
        account_number: w.account_number,
        amount: 500,
      });
      expect(credited.status).toBe(200);
      expect((await s.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_500);
    } finally {
      await s.close();
    }
    // Nor is a named snapshot, should the database live in the snapshot directory under that name.
    mkdirSync(join(dir, 'snaps'));
    const inside = await openServer({
      dbPath: join(dir, 'snaps', 'base.db'),
      snapshotDir: join(dir, 'snaps'),
      seed: 'inside',
      log: () => {},
    });
    try {
      const r = await inside.app.inject({
        method: 'POST',
        url: '/sandbox/snapshots',
        headers: { 'x-api-key': inside.apiKey, 'content-type': 'application/json' },
        payload: '{"name":"base"}',
      });
      expect([r.statusCode, JSON.parse(r.body).detail.fields]).toEqual([
        400,
        [
          {
            field: 'name',
            message: "is the sandbox's own database or one of its files: a snapshot is a file of its own",
          },
        ],
      ]);
      expect(inside.sandbox.lost()).toBeUndefined();
    } finally {
      await inside.close();
    }
  });

  it('refuses a file that is not a snapshot, and changes nothing', async () => {
    const w = await createWallet(t, 1_000);
    const junk = join(dir, 'junk.db');
    new SQLite(junk).exec('CREATE TABLE x (a)');
    for (const file of [junk, '/etc/hostname']) {
      const r = await t.call('POST', '/sandbox/snapshots/restore', { file });
      expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
        422,
        'SNAPSHOT_INVALID',
        [{ field: 'file', message: 'is not a ledger sandbox snapshot' }],
      ]);
    }
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000);
  });

  it('refuses a snapshot file whose rows do not hold together, with --force too (its audit skipped), and changes nothing', async () => {
    const w = await createWallet(t, 1_000);
    const file = join(dir, 'broken.db');
    await download(t, file);
    const raw = new SQLite(file);
    raw.pragma('foreign_keys = OFF');
    raw.prepare('UPDATE transactions SET account_seq = ?').run(999_999);
    raw.close();
    const r = await t.call('POST', '/sandbox/snapshots/restore', { file, force: true });
    expect([r.status, r.body.detail.code, r.body.detail.message]).toEqual([
      422,
      'SNAPSHOT_INVALID',
      'snapshot: its rows do not hold together (transactions refers to a missing row)',
    ]);
    expect((await t.call('GET', `/v1/wallets/${w.id}/transactions`)).body.data.total).toBe(1);
  });

  it('refuses a snapshot whose wallet does not balance, naming the wallet; --force loads it with a warning', async () => {
    // The snapshot is edited to raise a wallet by 1,000,000,000 kobo: 422 SNAPSHOT_INVALID, nothing changes.
    const warnings: string[] = [];
    const s = await createTestSandbox({ log: (line) => warnings.push(line) });
    try {
      const w = await createWallet(s, 1_000);
      await s.call('POST', '/sandbox/snapshots', { name: 'edited' });
      const file = join(dir, 'edited.db');
      await download(s, file);
      for (const path of [join(s.app.snapshots.dir, 'edited.db'), file]) {
        const raw = new SQLite(path);
        raw.prepare("UPDATE accounts SET balance = balance + 1000000000 WHERE id = ? AND kind = 'WALLET'").run(w.id);
        raw.close();
      }
      await s.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 500 });

      const problem = `WALLET account ${w.id} has balance 1000001000 but its entries sum to 1000`;
      for (const [url, body, field] of [
        ['/sandbox/snapshots/edited/restore', undefined, 'name'],
        ['/sandbox/snapshots/restore', { file }, 'file'],
      ] as const) {
        const r = await s.call('POST', url, body);
        expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
          422,
          'SNAPSHOT_INVALID',
          [{ field, message: 'does not balance' }],
        ]);
        expect(r.body.detail.message).toContain(problem);
        expect((await s.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_500);
      }
      expect(warnings).toEqual([]);

      const forced = await s.call('POST', '/sandbox/snapshots/edited/restore', { force: true });
      expect(forced.status).toBe(200);
      expect((await s.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000_001_000);
      expect(warnings).toEqual([
        'Warning: restoring snapshot "edited" with --force: the audit of its books (that they balance) was skipped',
      ]);
      expect((await s.call('GET', '/sandbox/audit')).body.data.ok).toBe(false);
    } finally {
      await s.stop();
    }
  });

  it('refuses a truncated snapshot file as SNAPSHOT_INVALID, with --force too, and changes nothing', async () => {
    const w = await createWallet(t, 1_000);
    await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 1 });
    const file = join(dir, 'truncated.db');
    await download(t, file);
    truncateSync(file, Math.floor(statSync(file).size * 0.6));
    for (const force of [false, true]) {
      const r = await t.call('POST', '/sandbox/snapshots/restore', { file, force });
      expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
        422,
        'SNAPSHOT_INVALID',
        [{ field: 'file', message: 'is damaged' }],
      ]);
    }
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_001);
  });

  it('answers 507 to a restore on a full disk, changes nothing, and restores once space is back', async () => {
    const w = await createWallet(t, 1_000);
    await t.call('POST', '/sandbox/snapshots', { name: 'base' });
    await t.call('POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 500 });
    injectStorageFault(t.sandbox.db, 'full');
    const refused = await t.call('POST', '/sandbox/snapshots/base/restore');
    injectStorageFault(t.sandbox.db, undefined);
    expect([refused.status, refused.body.detail.code]).toEqual([507, 'STORAGE_FULL']);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_500);
    expect((await t.call('POST', '/sandbox/snapshots/base/restore')).status).toBe(200);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000);
  });

  it('writes named snapshots with mode 0600 in a directory of mode 0700, and leaves no temporary file', async () => {
    await t.call('POST', '/sandbox/snapshots', { name: 'private' });
    const snapshotDir = t.app.snapshots.dir;
    expect(statSync(snapshotDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(snapshotDir)).toEqual(['private.db']);
    expect(statSync(join(snapshotDir, 'private.db')).mode & 0o777).toBe(0o600);
    // A download written anywhere too, whatever this process's umask; the copy sent leaves nothing behind.
    await download(t, join(dir, 'anywhere.db'));
    expect(statSync(join(dir, 'anywhere.db')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['anywhere.db']);
    expect(readdirSync(snapshotDir)).toEqual(['private.db']);
  });
});

describe('a snapshot name that would leave the snapshot directory', () => {
  /** A request written as is over a real socket: no client normalises `..` or percent-encoding on the way. */
  function send(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
    return new Promise<{ status: number; body: any }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const sent = httpRequest(
        {
          host: '127.0.0.1',
          port: new URL(baseUrl).port,
          method,
          path,
          headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        },
      );
      sent.on('error', reject);
      sent.end(payload);
    });
  }

  it('is refused (../, NUL, absolute paths, separators, raw or percent-encoded): nothing outside is written, restored or deleted', async () => {
    const snapshotDir = join(dir, 'snapshots');
    const server = await openServer({
      dbPath: join(dir, 'sandbox.db'),
      snapshotDir,
      seed: 'names',
      clockStart: Date.parse('2026-11-21T09:30:00.000Z'),
      log: () => {},
    });
    const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const call = (method: string, path: string, body?: unknown) => send(baseUrl, server.apiKey!, method, path, body);
      const created = await call('POST', '/v1/wallets', walletBody());
      await call('POST', '/sandbox/inbound-transfers', {
        account_number: created.body.data.account_number,
        amount: 5_000,
      });
      expect((await call('POST', '/sandbox/snapshots', { name: 'kept' })).status).toBe(200);
      // A valid snapshot beside the directory, where `../escape` would land: restoring it would take the balance back to 5,000.
      const outside = join(dir, 'escape.db');
      copyFileSync(join(snapshotDir, 'kept.db'), outside);
      const before = readFileSync(outside);
      await call('POST', '/sandbox/inbound-transfers', {
        account_number: created.body.data.account_number,
        amount: 2_500,
      });

      const refused = (reply: { status: number; body: any }) => [
        reply.status,
        reply.body.detail?.code,
        reply.body.detail?.fields?.map((f: { field: string }) => f.field),
      ];
      for (const name of [
        '../escape',
        '..',
        '.',
        outside.slice(0, -3),
        '/etc/passwd',
        'a\u0000b',
        'kept\u0000',
        'a/b',
        '..\\escape',
        '%2e%2e%2fescape',
      ]) {
        expect([name, ...refused(await call('POST', '/sandbox/snapshots', { name }))]).toEqual([
          name,
          400,
          'VALIDATION_ERROR',
          ['name'],
        ]);
      }
      const escaped = encodeURIComponent(outside.slice(0, -3));
      for (const segment of [
        '..%2Fescape',
        '%2E%2E%2Fescape',
        '%2e%2e',
        '..',
        '.',
        'kept%00',
        '%00',
        'a%00b',
        escaped,
        '..%5Cescape',
      ]) {
        expect([segment, ...refused(await call('POST', `/sandbox/snapshots/${segment}/restore`))]).toEqual([
          segment,
          400,
          'VALIDATION_ERROR',
          ['name'],
        ]);
        expect([segment, ...refused(await call('DELETE', `/sandbox/snapshots/${segment}`))]).toEqual([
          segment,
          400,
          'VALIDATION_ERROR',
          ['name'],
        ]);
      }

      expect(readFileSync(outside).equals(before)).toBe(true);
      expect(readdirSync(snapshotDir)).toEqual(['kept.db']);
      expect(
        readdirSync(dir)
          .filter((f) => !f.startsWith('sandbox.db'))
          .sort(),
      ).toEqual(['escape.db', 'snapshots']);
      expect((await call('GET', `/v1/wallets/${created.body.data.id}`)).body.data.balance).toBe(7_500);
      expect((await call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('a delivery in flight to an endpoint that never answers', () => {
  it("the owner's restore aborts developer B's attempt, answers while the endpoint still holds it, and the restored data has no trace of it", async () => {
    // An attempt left alone would wait 600 s: a restore that waits for it cannot answer in the bound below.
    const s = await createTestSandbox({ webhookTimeoutSeconds: 600 });
    const b = await developerWithHangingEndpoint(s);
    try {
      await s.call('POST', '/sandbox/snapshots', { name: 'before-attempt' });
      const advancing = s.call('POST', '/sandbox/clock/advance', { seconds: 1 }, { key: b.key });
      await vi.waitFor(() => expect(b.endpoint.received).toHaveLength(1));

      const restored = await within(s.call('POST', '/sandbox/snapshots/before-attempt/restore'), 10_000);
      expect(restored === 'still waiting' ? restored : restored.status).toBe(200);
      // The sandbox closed the connection: the endpoint never answered.
      await vi.waitFor(() => expect(b.endpoint.abandoned).toEqual([b.endpoint.received[0]!.id]));
      // The clock advance that sent it answers, having sent what the restored data has due: one attempt, answered.
      expect((await advancing).status).toBe(200);
      const [log] = (await s.call('GET', '/v1/webhook-logs', undefined, { key: b.key })).body.data.items;
      expect(log).toMatchObject({ status: 'DELIVERED', attempt_count: 1 });
      const attempts = (await s.call('GET', `/sandbox/webhook-logs/${log.id}/attempts`, undefined, { key: b.key })).body
        .data.items;
      expect(
        attempts.map((a: { attempt_number: number; http_status_code: number }) => [
          a.attempt_number,
          a.http_status_code,
        ]),
      ).toEqual([[1, 200]]);
      expect((await s.call('GET', '/sandbox/audit', undefined, { key: b.key })).body.data.ok).toBe(true);
    } finally {
      await b.endpoint.close();
      await s.close();
    }
  });
});

describe('consistency under load', () => {
  for (const where of ['memory', 'file'] as const) {
    it(`a save during 200 concurrent transfers is one consistent state (${where} database): its restored copy audits clean`, async () => {
      const s = where === 'memory' ? t : await createTestSandbox({ dbPath: join(dir, 'live.db'), seed: 'load' });
      try {
        const a = await createWallet(s, 1_000_000);
        const b = await createWallet(s);
        const transfers = Array.from({ length: 200 }, (_, i) =>
          s.call('POST', `/v1/wallets/${i % 2 ? a.id : b.id}/transfer`, {
            destination_account_number: i % 2 ? b.account_number : a.account_number,
            amount: 1 + (i % 7),
          }),
        );
        const file = join(dir, `under-load-${where}.db`);
        const save = download(s, file);
        const [saved, ...done] = await Promise.all([save, ...transfers]);
        expect(saved.status).toBe(200);
        expect(done.every((r) => r.status === 200 || r.body.detail?.code === 'INSUFFICIENT_FUNDS')).toBe(true);

        const copy = await createTestSandbox({ seed: 'copy' });
        try {
          expect((await copy.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
          const audit = await expectCleanAudit(copy);
          expect(audit.checked.transactions).toBeGreaterThanOrEqual(1);
        } finally {
          await copy.close();
        }
      } finally {
        if (s !== t) await s.close();
      }
    });
  }

  it('a restore under 16 concurrent writers answers every write 2xx or 409 and restores the books exactly', async () => {
    // No 5xx at any point; restored once the writers stop, the books are exactly as saved.
    const wallets = await Promise.all(Array.from({ length: 4 }, () => createWallet(t, 500_000)));
    const saved = (await t.call('POST', '/sandbox/snapshots', { name: 'base' })).body.data;
    const ids = wallets.map((w) => w.id);
    const before = await view(t, ids);
    let stop = false;
    const statuses: number[] = [];
    const writer = async (i: number) => {
      for (let n = 0; !stop; n++) {
        const from = wallets[(i + n) % 4]!;
        const to = wallets[(i + n + 1) % 4]!;
        const kind = n % 3;
        const r =
          kind === 0
            ? await t.call('POST', `/v1/wallets/${from.id}/transfer`, {
                destination_account_number: to.account_number,
                amount: 10,
              })
            : kind === 1
              ? await t.call('POST', '/sandbox/inbound-transfers', {
                  account_number: from.account_number,
                  amount: 25,
                  narration: 'salary',
                })
              : await t.call('POST', '/v1/wallets', walletBody());
        statuses.push(r.status);
      }
    };
    const writers = Array.from({ length: 16 }, (_, i) => writer(i));
    // Another 16 writes answered before each restore and after the last: every restore meets writes on both sides.
    const answered = (count: number) => vi.waitUntil(() => statuses.length >= count, { timeout: 10_000 });
    await answered(16);
    const restores = [];
    for (let i = 0; i < 3; i++) {
      const restored = await t.call('POST', '/sandbox/snapshots/base/restore');
      restores.push({ status: restored.status, data: restored.body.data });
      await answered(statuses.length + 16);
    }
    stop = true;
    await Promise.all(writers);
    expect(restores).toEqual(Array.from({ length: 3 }, () => ({ status: 200, data: saved })));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([...statuses].filter((s) => [200, 201, 409].includes(s))));
    // The writes after the last restore moved the books; restored with no one writing, they are as saved:
    // the four balances and wallets, their transactions, the deliveries and the clock.
    expect(await view(t, ids)).not.toEqual(before);
    expect((await t.call('POST', '/sandbox/snapshots/base/restore')).status).toBe(200);
    expect(await view(t, ids)).toEqual(before);
    expect(await Promise.all(ids.map(async (id) => (await t.call('GET', `/v1/wallets/${id}`)).body.data))).toEqual(
      wallets,
    );
  });
});

/** A database migrated up to `migration` only, holding one developer, one wallet and one credit as that version wrote them. */
async function olderDatabase(file: string, migration: string, now: string): Promise<SQLite.Database> {
  const raw = new SQLite(file);
  const old = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
  const result = await new Migrator({ db: old, provider: migrationProvider }).migrateTo(migration);
  expect(result.error).toBeUndefined();
  raw.exec(`
    INSERT INTO developers (id, business_name, webhook_url, webhook_secret, created_at)
      VALUES ('d0', 'SANDBOX', NULL, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '${now}');
    INSERT INTO settings (key, value) VALUES ('sandbox_developer_id', 'd0');
    INSERT INTO accounts (id, developer_id, kind, balance, floor_zero, created_at) VALUES
      ('a-provider', 'd0', 'PROVIDER_SETTLEMENT', -2500, 0, '${now}'), ('a-suspense', 'd0', 'SUSPENSE_HOLDING', 0, 1, '${now}'),
      ('a-fee', 'd0', 'FEE_INCOME', 0, 1, '${now}'), ('a-dismissed', 'd0', 'DISMISSED', 0, 1, '${now}'), ('w1', 'd0', 'WALLET', 2500, 1, '${now}');
    INSERT INTO wallets (id, developer_id, customer_reference, first_name, last_name, email, label, account_number, bank_code, bank_name,
      account_name, currency, status, system_prompt, allow_transfers_out, created_at)
      VALUES ('w1', 'd0', 'old-1', 'Old', 'Timer', 'old@example.com', 'Old Timer', '0000000019', '035', 'Wema Bank', 'SANDBOX / OLD TIMER', 'NGN',
        'ACTIVE', '', 1, '${now}');
    INSERT INTO postings (id, developer_id, kind, created_at) VALUES ('p1', 'd0', 'INBOUND', '${now}');
    INSERT INTO entries (id, posting_id, account_id, amount, created_at) VALUES ('e1', 'p1', 'w1', 2500, '${now}'), ('e2', 'p1', 'a-provider', -2500, '${now}');
    INSERT INTO transactions (id, developer_id, wallet_id, posting_id, entry_id, type, amount, balance_before, balance_after, currency, status,
      provider_reference, sender_name, sender_account, raw_narration, created_at, updated_at)
      VALUES ('t1', 'd0', 'w1', 'p1', 'e1', 'CREDIT', 2500, 0, 2500, 'NGN', 'SETTLED', '000013260601100000000000000001', 'OLD SENDER', '', 'salary',
        '${now}', '${now}');
  `);
  // Not old.destroy(): that closes `raw`, which the caller writes to and closes.
  return raw;
}

describe('an older snapshot', () => {
  it('is migrated on restore: a database stopped at migration 0005 comes back with every later change applied', async () => {
    // A snapshot from before the per-developer clocks and the transaction counters.
    const file = join(dir, 'old.db');
    const now = '2026-06-01T10:00:00.000Z';
    const raw = await olderDatabase(file, '0005_agents', now);
    raw.exec("INSERT INTO settings (key, value) VALUES ('clock_offset_ms', '5000')");
    const envelope = JSON.stringify({
      event_id: 'ev1',
      event_type: 'ledger.credit',
      api_version: '2026-11-01',
      created_at: now,
      data: { wallet_id: 'w1', amount: 2500, transaction_id: 't1', balance_after: 2500 },
    });
    raw
      .prepare(
        "INSERT INTO events (id, developer_id, type, payload, created_at) VALUES ('ev1', 'd0', 'ledger.credit', ?, ?)",
      )
      .run(envelope, now);
    raw
      .prepare(
        'INSERT INTO webhook_logs (id, developer_id, event_id, event_type, payload, status, attempt_count, delivered_at, created_at) ' +
          "VALUES ('l1', 'd0', 'ev1', 'ledger.credit', ?, 'DELIVERED', 1, ?, ?)",
      )
      .run(envelope, now, now);
    raw.close();

    expect((await t.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
    const listed = (await t.call('GET', '/v1/wallets/w1/transactions')).body.data;
    expect(listed).toMatchObject({ total: 1, items: [{ id: 't1', amount: 2500, balance_after: 2500 }] });
    // 0008 gave the developer the old sandbox-wide clock offset.
    expect((await t.call('GET', '/sandbox/clock')).body.data.offset_seconds).toBe(5);
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true });
    // The file itself is left as it was: a fixture in a repository must not change under its owner.
    const again = new SQLite(file, { readonly: true });
    expect(again.prepare("SELECT count(*) AS n FROM kysely_migration WHERE name > '0005_agents'").get()).toEqual({
      n: 0,
    });
    again.close();
  });

  it('made before 0015 keeps sending and showing what it stored: payloads, answers and attempts', async () => {
    const file = join(dir, 'old-0014.db');
    const now = '2026-06-01T10:00:00.000Z';
    const raw = await olderDatabase(file, '0014_lean_webhook_storage', now);
    const accepted = '{"received":true,"signature_valid":true}';
    const envelope = JSON.stringify({
      event_id: 'ev1',
      event_type: 'ledger.credit',
      api_version: '2026-11-01',
      created_at: now,
      data: { transaction_id: 't1', wallet_id: 'w1', amount: 2500 },
    });
    raw
      .prepare(
        "INSERT INTO events (id, developer_id, type, payload, created_at) VALUES ('ev1', 'd0', 'ledger.credit', ?, ?)",
      )
      .run(envelope, now);
    raw.exec(`
      INSERT INTO transaction_counts (wallet_id, type, n) VALUES ('w1', 'CREDIT', 1);
      INSERT INTO webhook_log_counts (developer_id, status, event_type, n) VALUES ('d0', 'DELIVERED', 'ledger.credit', 1);
      INSERT INTO webhook_logs (id, developer_id, event_id, event_type, status, http_status_code, response_body, attempt_count, delivered_at, created_at)
        VALUES ('l1', 'd0', 'ev1', 'ledger.credit', 'DELIVERED', 200, '${accepted}', 1, '${now}', '${now}');
      INSERT INTO webhook_attempts (id, log_id, attempt_number, manual, url, http_status_code, response_body, error, duration_ms, created_at)
        VALUES ('at1', 'l1', 1, 0, 'http://127.0.0.1:4010/sandbox/receiver/d0', 200, '${accepted}', NULL, 0, '${now}'),
               ('at2', 'l1', 2, 1, 'http://example.test/hooks', 200, '', NULL, 3, '${now}');
    `);
    raw.close();

    expect((await t.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
    const log = (await t.call('GET', '/sandbox/webhook-logs/l1')).body.data;
    expect(log).toMatchObject({ payload: JSON.parse(envelope), response_body: accepted, http_status_code: 200 });
    const attempts = (await t.call('GET', '/sandbox/webhook-logs/l1/attempts')).body.data.items;
    expect(attempts.map((a: { response_body: string; url: string }) => [a.url, a.response_body])).toEqual([
      ['http://127.0.0.1:4010/sandbox/receiver/d0', accepted],
      ['http://example.test/hooks', ''],
    ]);
    // Stored as 0015 stores them: the event keeps its payload, the standard answer is NULL, the rest as it was.
    const db = t.sandbox.db;
    expect(await db.selectFrom('events').select(['payload', 'transaction_seq']).execute()).toEqual([
      { payload: envelope, transaction_seq: null },
    ]);
    expect(await db.selectFrom('webhook_attempts').select(['id', 'response_body']).orderBy('seq').execute()).toEqual([
      { id: 'at1', response_body: null },
      { id: 'at2', response_body: '' },
    ]);
    expect(await db.selectFrom('webhook_logs').select('response_body').execute()).toEqual([{ response_body: null }]);
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true });
  });
});

describe('a database made before 0016', () => {
  it('keeps every row and seq, and shows what it showed: postings and entries by seq, transactions, suspense, logs and attempts', async () => {
    const file = join(dir, 'old-0015.db');
    const now = '2026-06-01T10:00:00.000Z';
    const raw = new SQLite(file);
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    expect(
      (await new Migrator({ db: old, provider: migrationProvider }).migrateTo('0015_lean_ledger_rows')).error,
    ).toBeUndefined();
    const accepted = '{"received":true,"signature_valid":true}';
    const stored = JSON.stringify({
      event_id: 'ev3',
      event_type: 'suspense.created',
      api_version: '2026-11-01',
      created_at: now,
      data: { suspense_id: 's1' },
    });
    // An inbound credit of 2,500 to w1, a transfer of 1,000 from w1 to w2, an inbound of 300 held in
    // suspense; a fourth posting was removed (its seq must not come back), and so were t4, l4 and at4.
    raw.exec(`
      INSERT INTO developers (id, business_name, webhook_url, webhook_secret, created_at)
        VALUES ('d0', 'SANDBOX', NULL, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '${now}');
      INSERT INTO settings (key, value) VALUES ('sandbox_developer_id', 'd0');
      INSERT INTO accounts (id, developer_id, kind, balance, floor_zero, created_at) VALUES
        ('a-provider', 'd0', 'PROVIDER_SETTLEMENT', -2800, 0, '${now}'), ('a-suspense', 'd0', 'SUSPENSE_HOLDING', 300, 1, '${now}'),
        ('a-fee', 'd0', 'FEE_INCOME', 0, 1, '${now}'), ('a-dismissed', 'd0', 'DISMISSED', 0, 1, '${now}'),
        ('w1', 'd0', 'WALLET', 1500, 1, '${now}'), ('w2', 'd0', 'WALLET', 1000, 1, '${now}');
      INSERT INTO wallets (id, developer_id, customer_reference, first_name, last_name, email, label, account_number, bank_code, bank_name,
        account_name, currency, status, system_prompt, allow_transfers_out, created_at) VALUES
        ('w1', 'd0', 'old-1', 'Old', 'Timer', 'old@example.com', 'Old Timer', '0000000019', '035', 'Wema Bank', 'SANDBOX / OLD TIMER', 'NGN',
          'ACTIVE', '', 1, '${now}'),
        ('w2', 'd0', 'old-2', 'New', 'Comer', 'new@example.com', 'New Comer', '0000000027', '035', 'Wema Bank', 'SANDBOX / NEW COMER', 'NGN',
          'ACTIVE', '', 1, '${now}');
      INSERT INTO postings (seq, id, developer_id, kind, created_at) VALUES
        (1, 'p1', 'd0', 'INBOUND', '${now}'), (2, 'p2', 'd0', 'INTERNAL_TRANSFER', '${now}'), (3, 'p3', 'd0', 'SUSPENSE', '${now}'),
        (4, 'p4', 'd0', 'INBOUND', '${now}');
      DELETE FROM postings WHERE seq = 4;
      INSERT INTO entries (seq, id, posting_id, account_id, amount) VALUES
        (1, 'e1', 'p1', 'w1', 2500), (2, 'e2', 'p1', 'a-provider', -2500), (3, 'e3', 'p2', 'w1', -1000), (4, 'e4', 'p2', 'w2', 1000),
        (5, 'e5', 'p3', 'a-suspense', 300), (6, 'e6', 'p3', 'a-provider', -300);
      INSERT INTO transactions (seq, id, developer_id, wallet_id, posting_id, entry_id, type, amount, balance_before, balance_after, currency, status,
        provider_reference, sender_name, sender_account, raw_narration, destination_account_number, destination_bank_code, destination_account_name,
        fee, created_at, updated_at) VALUES
        (1, 't1', 'd0', 'w1', 'p1', 'e1', 'CREDIT', 2500, 0, 2500, 'NGN', 'SETTLED', '000013260601100000000000000001', 'OLD SENDER', '0123456789',
          'salary', NULL, NULL, NULL, NULL, '${now}', '${now}'),
        (2, 't2', 'd0', 'w1', 'p2', 'e3', 'DEBIT', 1000, 2500, 1500, 'NGN', 'SETTLED', '000013260601100000000000000002', 'SANDBOX / OLD TIMER',
          '0000000019', 'rent', '0000000027', '035', 'SANDBOX / NEW COMER', 0, '${now}', '${now}'),
        (3, 't3', 'd0', 'w2', 'p2', 'e4', 'CREDIT', 1000, 0, 1000, 'NGN', 'SETTLED', '000013260601100000000000000002', 'SANDBOX / OLD TIMER',
          '0000000019', 'rent', '0000000027', '035', 'SANDBOX / NEW COMER', 0, '${now}', '${now}');
      INSERT INTO transaction_counts (wallet_id, type, n) VALUES ('w1', 'CREDIT', 1), ('w1', 'DEBIT', 1), ('w2', 'CREDIT', 1);
      INSERT INTO suspense_items (id, developer_id, wallet_id, account_number, amount, sender_name, sender_account, sender_bank_code, raw_narration,
        provider_reference, reason, status, raw_payload, posting_id, created_at)
        VALUES ('s1', 'd0', 'w1', '0000000019', 300, 'ODD SENDER', '0123456789', '058', 'gift', '000013260601100000000000000003', 'AI_LOW_CONFIDENCE',
          'PENDING', '{}', 'p3', '${now}');
      INSERT INTO events (seq, id, developer_id, type, payload, created_at, transaction_seq) VALUES
        (1, 'ev1', 'd0', 'ledger.credit', '', '${now}', 1), (2, 'ev2', 'd0', 'ledger.debit', '', '${now}', 2),
        (3, 'ev2b', 'd0', 'ledger.credit', '', '${now}', 3), (4, 'ev3', 'd0', 'suspense.created', '${stored}', '${now}', NULL);
      INSERT INTO webhook_logs (seq, id, developer_id, event_id, event_type, status, http_status_code, response_body, attempt_count, next_retry_at,
        delivered_at) VALUES
        (1, 'l1', 'd0', 'ev1', 'ledger.credit', 'DELIVERED', 200, NULL, 2, NULL, '${now}'),
        (2, 'l2', 'd0', 'ev2', 'ledger.debit', 'DELIVERED', 200, NULL, 1, NULL, '${now}'),
        (3, 'l2b', 'd0', 'ev2b', 'ledger.credit', 'DELIVERED', 200, NULL, 1, NULL, '${now}'),
        (5, 'l3', 'd0', 'ev3', 'suspense.created', 'FAILED', 500, 'oops', 1, '2026-06-01T10:00:05.000Z', NULL);
      INSERT INTO webhook_log_counts (developer_id, status, event_type, n) VALUES
        ('d0', 'DELIVERED', 'ledger.credit', 2), ('d0', 'DELIVERED', 'ledger.debit', 1), ('d0', 'FAILED', 'suspense.created', 1);
      INSERT INTO webhook_attempts (seq, id, log_id, attempt_number, manual, url, http_status_code, response_body, error, duration_ms, created_at) VALUES
        (1, 'at1', 'l1', 1, 0, 'http://example.test/hooks', 503, 'busy', NULL, 7, '${now}'),
        (2, 'at2', 'l1', 2, 0, 'http://127.0.0.1:4010/sandbox/receiver/d0', 200, NULL, NULL, 0, '${now}'),
        (3, 'at3', 'l2', 1, 0, 'http://127.0.0.1:4010/sandbox/receiver/d0', 200, NULL, NULL, 0, '${now}'),
        (4, 'at3b', 'l2b', 1, 0, 'http://127.0.0.1:4010/sandbox/receiver/d0', 200, NULL, NULL, 0, '${now}'),
        (6, 'at4', 'l3', 1, 0, 'http://example.test/hooks', 500, 'oops', NULL, 4, '${now}');
      UPDATE sqlite_sequence SET seq = 7 WHERE name = 'webhook_attempts';
    `);
    raw.close();

    expect((await t.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
    const list = async (wallet: string) => (await t.call('GET', `/v1/wallets/${wallet}/transactions`)).body.data;
    expect(await list('w1')).toMatchObject({
      total: 2,
      items: [
        { id: 't1', type: 'CREDIT', balance_after: 2500 },
        { id: 't2', type: 'DEBIT', balance_after: 1500 },
      ],
    });
    expect(await list('w2')).toMatchObject({
      total: 1,
      items: [{ id: 't3', type: 'CREDIT', amount: 1000, balance_after: 1000, created_at: now, updated_at: now }],
    });
    expect((await t.call('GET', '/v1/suspense')).body.data).toMatchObject({
      total: 1,
      items: [{ id: 's1', amount: 300 }],
    });
    const logs = (await t.call('GET', '/v1/webhook-logs?limit=10')).body.data;
    expect(
      logs.items.map((l: { id: string; event_id: string; status: string }) => [l.id, l.event_id, l.status]),
    ).toEqual([
      ['l1', 'ev1', 'DELIVERED'],
      ['l2', 'ev2', 'DELIVERED'],
      ['l2b', 'ev2b', 'DELIVERED'],
      ['l3', 'ev3', 'FAILED'],
    ]);
    expect(logs.items[3].payload).toEqual(JSON.parse(stored));
    expect(logs.items[0].payload).toMatchObject({ event_id: 'ev1', data: { transaction_id: 't1', amount: 2500 } });
    const attempts = async (log: string) =>
      (await t.call('GET', `/sandbox/webhook-logs/${log}/attempts`)).body.data.items;
    expect(
      (await attempts('l1')).map((a: { id: string; url: string; response_body: string }) => [
        a.id,
        a.url,
        a.response_body,
      ]),
    ).toEqual([
      ['at1', 'http://example.test/hooks', 'busy'],
      ['at2', 'http://127.0.0.1:4010/sandbox/receiver/d0', accepted],
    ]);
    expect((await attempts('l3')).map((a: { id: string }) => a.id)).toEqual(['at4']);
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true });

    // Keyed by seq now, every seq kept, and no seq handed out twice.
    const db = t.sandbox.db;
    const accountIds = new Map(
      (await db.selectFrom('accounts').select(['seq', 'id']).execute()).map((a) => [a.seq, a.id]),
    );
    const entries = await db
      .selectFrom('entries')
      .select(['seq', 'posting_seq', 'account_seq'])
      .orderBy('seq')
      .execute();
    expect(entries.map(({ account_seq, ...e }) => ({ ...e, account_id: accountIds.get(account_seq) }))).toEqual([
      { seq: 1, posting_seq: 1, account_id: 'w1' },
      { seq: 2, posting_seq: 1, account_id: 'a-provider' },
      { seq: 3, posting_seq: 2, account_id: 'w1' },
      { seq: 4, posting_seq: 2, account_id: 'w2' },
      { seq: 5, posting_seq: 3, account_id: 'a-suspense' },
      { seq: 6, posting_seq: 3, account_id: 'a-provider' },
    ]);
    // An updated_at that repeats created_at is stored as NULL, and still shown (above: as created_at).
    expect(
      await db
        .selectFrom('transactions')
        .select(['id', 'posting_seq', 'entry_seq', 'updated_at'])
        .orderBy('seq')
        .execute(),
    ).toEqual([
      { id: 't1', posting_seq: 1, entry_seq: 1, updated_at: null },
      { id: 't2', posting_seq: 2, entry_seq: 3, updated_at: null },
      { id: 't3', posting_seq: 2, entry_seq: 4, updated_at: null },
    ]);
    expect(await db.selectFrom('suspense_items').select(['id', 'posting_seq']).execute()).toEqual([
      { id: 's1', posting_seq: 3 },
    ]);
    const next = await t.call('POST', '/v1/wallets/w1/transfer', {
      destination_account_number: '0000000027',
      amount: 100,
    });
    expect(next.status).toBe(200);
    expect(await db.selectFrom('postings').select('seq').orderBy('seq', 'desc').limit(1).execute()).toEqual([
      { seq: 5 },
    ]);
  });
});

describe('a database made before 0020 (0020 and 0020b)', () => {
  it('keeps every row and seq, and shows what it showed: events, logs and attempts named by developer number, type code, epoch ms and id bytes', async () => {
    const file = join(dir, 'old-0016.db');
    const now = '2026-06-01T10:00:00.123Z';
    const later = '2026-06-01T10:05:07.009Z';
    const raw = new SQLite(file);
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    expect(
      (
        await new Migrator({ db: old, provider: migrationProvider }).migrateTo(
          '0016c_transactions_updated_only_when_changed',
        )
      ).error,
    ).toBeUndefined();
    const stored = JSON.stringify({
      event_id: '01a209fd-1cba-7cb4-915a-c38efe1ea20c',
      event_type: 'wallet.closed',
      api_version: '2026-11-01',
      created_at: later,
      data: { wallet_id: 'w9' },
    });
    const other = JSON.stringify({
      event_id: 'evx',
      event_type: 'agent.failed',
      api_version: '2026-11-01',
      created_at: now,
      data: {},
    });
    // Two developers (d1 made first, so it is number 1); the sandbox's d0 has an inbound credit
    // announced by a built payload, a stored event with a FAILED delivery still due, and a removed
    // event, log and attempt whose seqs must not come back.
    raw.exec(`
      INSERT INTO developers (id, business_name, webhook_url, webhook_secret, created_at) VALUES
        ('d0', 'SANDBOX', NULL, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '${later}'), ('d1', 'OTHER', NULL, 'whsec_other', '${now}');
      INSERT INTO settings (key, value) VALUES ('sandbox_developer_id', 'd0');
      INSERT INTO accounts (id, developer_id, kind, balance, floor_zero, created_at) VALUES
        ('a-provider', 'd0', 'PROVIDER_SETTLEMENT', -2500, 0, '${now}'), ('a-suspense', 'd0', 'SUSPENSE_HOLDING', 0, 1, '${now}'),
        ('a-fee', 'd0', 'FEE_INCOME', 0, 1, '${now}'), ('a-dismissed', 'd0', 'DISMISSED', 0, 1, '${now}'), ('w1', 'd0', 'WALLET', 2500, 1, '${now}');
      INSERT INTO wallets (id, developer_id, customer_reference, first_name, last_name, email, label, account_number, bank_code, bank_name,
        account_name, currency, status, system_prompt, allow_transfers_out, created_at) VALUES
        ('w1', 'd0', 'old-1', 'Old', 'Timer', 'old@example.com', 'Old Timer', '0000000019', '035', 'Wema Bank', 'SANDBOX / OLD TIMER', 'NGN',
          'ACTIVE', '', 1, '${now}');
      INSERT INTO postings (seq, developer_id, kind, created_at) VALUES (1, 'd0', 'INBOUND', '${now}');
      INSERT INTO entries (seq, posting_seq, account_id, amount) VALUES (1, 1, 'w1', 2500), (2, 1, 'a-provider', -2500);
      INSERT INTO transactions (seq, id, developer_id, wallet_id, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency,
        status, provider_reference, sender_name, sender_account, raw_narration, created_at) VALUES
        (1, 't1', 'd0', 'w1', 1, 1, 'CREDIT', 2500, 0, 2500, 'NGN', 'SETTLED', '000013260601100000000000000001', 'OLD SENDER', '0123456789', 'salary',
          '${now}');
      INSERT INTO transaction_counts (wallet_id, type, n) VALUES ('w1', 'CREDIT', 1);
      INSERT INTO events (seq, id, developer_id, type, payload, created_at, transaction_seq) VALUES
        (1, 'ev1', 'd0', 'ledger.credit', '', '${now}', 1), (2, 'evx', 'd1', 'agent.failed', '${other}', '${now}', NULL),
        (3, '01a209fd-1cba-7cb4-915a-c38efe1ea20c', 'd0', 'wallet.closed', '${stored}', '${later}', NULL),
        (4, 'ev4', 'd0', 'wallet.closed', '${stored}', '${later}', NULL);
      DELETE FROM events WHERE seq = 4;
      INSERT INTO webhook_urls (seq, url) VALUES (1, 'http://example.test/hooks');
      INSERT INTO webhook_logs (seq, id, developer_id, event_seq, event_type, status, http_status_code, response_body, attempt_count, next_retry_at,
        delivered_at) VALUES
        (1, 'l1', 'd0', 1, 'ledger.credit', 'DELIVERED', 200, NULL, 2, NULL, '${later}'),
        (2, 'lx', 'd1', 2, 'agent.failed', 'PENDING', NULL, NULL, 0, '${now}', NULL),
        (4, '01a209fd-1cba-7864-8f14-b33bf0aca8b0', 'd0', 3, 'wallet.closed', 'FAILED', 500, 'oops', 1, '2026-06-01T10:05:12.009Z', NULL);
      INSERT INTO webhook_log_counts (developer_id, status, event_type, n) VALUES
        ('d0', 'DELIVERED', 'ledger.credit', 1), ('d1', 'PENDING', 'agent.failed', 1), ('d0', 'FAILED', 'wallet.closed', 1);
      INSERT INTO webhook_attempts (seq, id, log_seq, attempt_number, manual, url_seq, http_status_code, response_body, error, duration_ms, created_at) VALUES
        (1, 'at1', 1, 1, 0, 1, 503, 'busy', NULL, 7, '${now}'),
        (2, 'at2', 1, 2, 1, 1, 200, '', NULL, 3, '${later}'),
        (4, '01a209fd-1eca-7438-b148-6f73d2eede63', 4, 1, 0, 1, 500, 'oops', NULL, 4, '${later}');
      UPDATE sqlite_sequence SET seq = 5 WHERE name = 'webhook_logs';
      UPDATE sqlite_sequence SET seq = 6 WHERE name = 'webhook_attempts';
    `);
    raw.close();

    expect((await t.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
    const logs = (await t.call('GET', '/v1/webhook-logs?limit=10')).body.data;
    expect(logs.total).toBe(2);
    expect(
      logs.items.map((l: Record<string, unknown>) => [
        l.id,
        l.event_id,
        l.event_type,
        l.status,
        l.next_retry_at,
        l.delivered_at,
        l.created_at,
      ]),
    ).toEqual([
      ['l1', 'ev1', 'ledger.credit', 'DELIVERED', null, later, now],
      [
        '01a209fd-1cba-7864-8f14-b33bf0aca8b0',
        '01a209fd-1cba-7cb4-915a-c38efe1ea20c',
        'wallet.closed',
        'FAILED',
        '2026-06-01T10:05:12.009Z',
        null,
        later,
      ],
    ]);
    expect(logs.items[0].payload).toEqual({
      event_id: 'ev1',
      event_type: 'ledger.credit',
      api_version: '2026-11-01',
      created_at: now,
      data: expect.objectContaining({ transaction_id: 't1', wallet_id: 'w1', amount: 2500, balance_after: 2500 }),
    });
    expect(logs.items[1].payload).toEqual(JSON.parse(stored));
    const byType = (await t.call('GET', '/v1/webhook-logs?event_type=wallet.closed')).body.data;
    expect(byType).toMatchObject({ total: 1, items: [{ id: '01a209fd-1cba-7864-8f14-b33bf0aca8b0' }] });
    expect((await t.call('GET', '/sandbox/webhook-logs/01a209fd-1cba-7864-8f14-b33bf0aca8b0')).body.data).toMatchObject(
      { id: '01a209fd-1cba-7864-8f14-b33bf0aca8b0', event_id: '01a209fd-1cba-7cb4-915a-c38efe1ea20c' },
    );
    expect(
      (await t.call('GET', '/sandbox/webhook-logs/01a209fd-1cba-7864-8f14-b33bf0aca8b0/attempts')).body.data.items,
    ).toMatchObject([{ id: '01a209fd-1eca-7438-b148-6f73d2eede63', created_at: later }]);
    expect((await t.call('GET', '/v1/webhook-logs?event_type=agent.failed')).body.data).toMatchObject({
      total: 0,
      items: [],
    });
    const attempts = (await t.call('GET', '/sandbox/webhook-logs/l1/attempts')).body.data.items;
    expect(
      attempts.map((a: Record<string, unknown>) => [
        a.id,
        a.attempt_number,
        a.manual,
        a.url,
        a.http_status_code,
        a.response_body,
        a.duration_ms,
        a.created_at,
      ]),
    ).toEqual([
      ['at1', 1, false, 'http://example.test/hooks', 503, 'busy', 7, now],
      ['at2', 2, true, 'http://example.test/hooks', 200, '', 3, later],
    ]);
    expect((await t.call('GET', '/sandbox/webhook-logs/lx')).status).toBe(404);
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true });

    // Stored by number: d1 was made first; every seq kept, none handed out twice.
    const db = t.sandbox.db;
    expect(await db.selectFrom('developers').select(['id', 'seq']).orderBy('seq').execute()).toEqual([
      { id: 'd1', seq: 1 },
      { id: 'd0', seq: 2 },
    ]);
    expect(
      await db
        .selectFrom('events')
        .select(['seq', 'developer_seq', 'type_code', 'created_at_ms'])
        .orderBy('seq')
        .execute(),
    ).toEqual([
      { seq: 1, developer_seq: 2, type_code: 0, created_at_ms: Date.parse(now) },
      { seq: 2, developer_seq: 1, type_code: 7, created_at_ms: Date.parse(now) },
      { seq: 3, developer_seq: 2, type_code: 8, created_at_ms: Date.parse(later) },
    ]);
    expect(
      await db
        .selectFrom('webhook_logs')
        .select(['seq', 'developer_seq', 'event_seq', 'event_type_code', 'next_retry_at_ms', 'delivered_at_ms'])
        .orderBy('seq')
        .execute(),
    ).toEqual([
      {
        seq: 1,
        developer_seq: 2,
        event_seq: 1,
        event_type_code: 0,
        next_retry_at_ms: null,
        delivered_at_ms: Date.parse(later),
      },
      {
        seq: 2,
        developer_seq: 1,
        event_seq: 2,
        event_type_code: 7,
        next_retry_at_ms: Date.parse(now),
        delivered_at_ms: null,
      },
      {
        seq: 4,
        developer_seq: 2,
        event_seq: 3,
        event_type_code: 8,
        next_retry_at_ms: Date.parse('2026-06-01T10:05:12.009Z'),
        delivered_at_ms: null,
      },
    ]);
    expect(
      await db.selectFrom('webhook_attempts').select(['seq', 'log_seq', 'created_at_ms']).orderBy('seq').execute(),
    ).toEqual([
      { seq: 1, log_seq: 1, created_at_ms: Date.parse(now) },
      { seq: 2, log_seq: 1, created_at_ms: Date.parse(later) },
      { seq: 4, log_seq: 4, created_at_ms: Date.parse(later) },
    ]);
    // Ids in the sandbox's form as their 16 bytes (0020b), any other id as the text it was.
    const kinds = async (table: 'events' | 'webhook_logs' | 'webhook_attempts') =>
      (
        await sql<{ kind: string }>`SELECT typeof(id) AS kind FROM ${sql.table(table)} ORDER BY seq`.execute(db)
      ).rows.map((r) => r.kind);
    expect(await kinds('events')).toEqual(['text', 'text', 'blob']);
    expect(await kinds('webhook_logs')).toEqual(['text', 'text', 'blob']);
    expect(await kinds('webhook_attempts')).toEqual(['text', 'text', 'blob']);
    // The next rows take the next seqs, named by the sandbox developer's number.
    const credit = await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: '0000000019',
      amount: 100,
      narration: 'salary',
    });
    expect(credit.status).toBe(200);
    expect(await db.selectFrom('events').select(['seq', 'developer_seq']).where('seq', '>', 3).execute()).toEqual([
      { seq: 5, developer_seq: 2 },
    ]);
    expect(await db.selectFrom('webhook_logs').select(['seq', 'developer_seq']).where('seq', '>', 4).execute()).toEqual(
      [{ seq: 6, developer_seq: 2 }],
    );
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true });
  });
});

describe('a database made before 0019', () => {
  it('keeps every row and seq, and shows what it showed: accounts by seq, entries and transactions pointing at them, times as milliseconds', async () => {
    const file = join(dir, 'old-0016.db');
    const now = '2026-06-01T10:00:00.000Z';
    const later = '2026-06-01T10:05:00.250Z';
    const raw = new SQLite(file);
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    expect(
      (
        await new Migrator({ db: old, provider: migrationProvider }).migrateTo(
          '0016c_transactions_updated_only_when_changed',
        )
      ).error,
    ).toBeUndefined();
    // Two developers: d0 (an inbound of 2,500 to w1, a transfer of 1,000 from w1 to w2, a payout
    // debit of 200 from w2 that settled later) and d1 (an inbound of 70 to x1). Transaction 4 was removed.
    const tx = (
      seq: number,
      id: string,
      dev: string,
      wallet: string,
      posting: number,
      entry: number,
      type: string,
      amount: number,
      before: number,
      after: number,
      updated: string | null,
    ) =>
      `(${seq}, '${id}', '${dev}', '${wallet}', ${posting}, ${entry}, '${type}', ${amount}, ${before}, ${after}, 'NGN', 'SETTLED', ` +
      `'0000132606011000000000000000${seq}0', 'SENDER ${seq}', '0123456789', 'memo ${seq}', NULL, NULL, NULL, NULL, NULL, NULL, ` +
      `'${now}', ${updated === null ? 'NULL' : `'${updated}'`})`;
    raw.exec(`
      INSERT INTO developers (id, business_name, webhook_url, webhook_secret, created_at) VALUES
        ('d0', 'SANDBOX', NULL, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '${now}'), ('d1', 'OTHER', NULL, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSx', '${now}');
      INSERT INTO settings (key, value) VALUES ('sandbox_developer_id', 'd0');
      INSERT INTO accounts (id, developer_id, kind, balance, floor_zero, created_at) VALUES
        ('a-provider', 'd0', 'PROVIDER_SETTLEMENT', -2300, 0, '${now}'), ('w1', 'd0', 'WALLET', 1500, 1, '${now}'),
        ('w2', 'd0', 'WALLET', 800, 1, '${now}'), ('b-provider', 'd1', 'PROVIDER_SETTLEMENT', -70, 0, '${now}'), ('x1', 'd1', 'WALLET', 70, 1, '${now}');
      INSERT INTO wallets (id, developer_id, customer_reference, first_name, last_name, email, label, account_number, bank_code, bank_name,
        account_name, currency, status, system_prompt, allow_transfers_out, created_at) VALUES
        ('w1', 'd0', 'old-1', 'Old', 'Timer', 'old@example.com', 'Old Timer', '0000000019', '035', 'Wema Bank', 'SANDBOX / OLD TIMER', 'NGN',
          'ACTIVE', '', 1, '${now}'),
        ('w2', 'd0', 'old-2', 'New', 'Comer', 'new@example.com', 'New Comer', '0000000027', '035', 'Wema Bank', 'SANDBOX / NEW COMER', 'NGN',
          'ACTIVE', '', 1, '${now}'),
        ('x1', 'd1', 'other-1', 'Ext', 'Ra', 'ext@example.com', 'Ext Ra', '0000000035', '035', 'Wema Bank', 'OTHER / EXT RA', 'NGN', 'ACTIVE', '', 1, '${now}');
      INSERT INTO postings (seq, developer_id, kind, created_at) VALUES
        (1, 'd0', 'INBOUND', '${now}'), (2, 'd0', 'INTERNAL_TRANSFER', '${now}'), (3, 'd0', 'PAYOUT', '${now}'), (4, 'd1', 'INBOUND', '${now}');
      INSERT INTO entries (seq, posting_seq, account_id, amount) VALUES
        (1, 1, 'w1', 2500), (2, 1, 'a-provider', -2500), (3, 2, 'w1', -1000), (4, 2, 'w2', 1000), (5, 3, 'w2', -200), (6, 3, 'a-provider', 200),
        (7, 4, 'x1', 70), (8, 4, 'b-provider', -70);
      INSERT INTO transactions (seq, id, developer_id, wallet_id, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
        provider_reference, sender_name, sender_account, raw_narration, service_intelligence, destination_account_number, destination_bank_code,
        destination_account_name, fee, agent_id, created_at, updated_at) VALUES
        ${tx(1, 't1', 'd0', 'w1', 1, 1, 'CREDIT', 2500, 0, 2500, null)}, ${tx(2, 't2', 'd0', 'w1', 2, 3, 'DEBIT', 1000, 2500, 1500, null)},
        ${tx(3, 't3', 'd0', 'w2', 2, 4, 'CREDIT', 1000, 0, 1000, null)}, ${tx(5, 't5', 'd0', 'w2', 3, 5, 'DEBIT', 200, 1000, 800, later)},
        ${tx(6, 't6', 'd1', 'x1', 4, 7, 'CREDIT', 70, 0, 70, null)};
      UPDATE sqlite_sequence SET seq = 9 WHERE name = 'transactions';
      INSERT INTO transaction_counts (wallet_id, type, n) VALUES ('w1', 'CREDIT', 1), ('w1', 'DEBIT', 1), ('w2', 'CREDIT', 1), ('w2', 'DEBIT', 1),
        ('x1', 'CREDIT', 1);
      INSERT INTO events (seq, id, developer_id, type, payload, created_at, transaction_seq) VALUES
        (1, 'ev1', 'd0', 'ledger.credit', '', '${now}', 1), (2, 'ev2', 'd0', 'ledger.debit', '', '${now}', 2),
        (3, 'ev3', 'd0', 'ledger.credit', '', '${now}', 3),
        (4, 'ev5', 'd0', 'ledger.debit', '', '${now}', 5), (5, 'ev6', 'd1', 'ledger.credit', '', '${now}', 6);
      INSERT INTO webhook_logs (seq, id, developer_id, event_seq, event_type, status, http_status_code, response_body, attempt_count, next_retry_at,
        delivered_at) VALUES
        (1, 'l1', 'd0', 1, 'ledger.credit', 'DELIVERED', 200, NULL, 1, NULL, '${now}'),
        (2, 'l2', 'd0', 2, 'ledger.debit', 'DELIVERED', 200, NULL, 1, NULL, '${now}'),
        (3, 'l3', 'd0', 3, 'ledger.credit', 'DELIVERED', 200, NULL, 1, NULL, '${now}'),
        (4, 'l5', 'd0', 4, 'ledger.debit', 'DELIVERED', 200, NULL, 1, NULL, '${now}'),
        (5, 'l6', 'd1', 5, 'ledger.credit', 'DELIVERED', 200, NULL, 1, NULL, '${now}');
      INSERT INTO webhook_log_counts (developer_id, status, event_type, n) VALUES
        ('d0', 'DELIVERED', 'ledger.credit', 2), ('d0', 'DELIVERED', 'ledger.debit', 2), ('d1', 'DELIVERED', 'ledger.credit', 1);
    `);
    raw.close();

    expect((await t.call('POST', '/sandbox/snapshots/restore', { file })).status).toBe(200);
    const shown = (await t.call('GET', '/v1/transactions/t5')).body.data;
    expect(shown).toEqual({
      id: 't5',
      wallet_id: 'w2',
      developer_id: 'd0',
      type: 'DEBIT',
      amount: 200,
      balance_before: 1000,
      balance_after: 800,
      currency: 'NGN',
      status: 'SETTLED',
      provider_reference: '000013260601100000000000000050',
      sender_name: 'SENDER 5',
      sender_account: '0123456789',
      raw_narration: 'memo 5',
      service_intelligence: null,
      destination_account_number: null,
      destination_bank_code: null,
      destination_account_name: null,
      fee: null,
      agent_id: null,
      created_at: now,
      updated_at: later,
    });
    // Another developer's transaction is as good as missing.
    expect((await t.call('GET', '/v1/transactions/t6')).status).toBe(404);
    const list = async (wallet: string, query = '') =>
      (await t.call('GET', `/v1/wallets/${wallet}/transactions${query}`)).body.data;
    expect(await list('w1')).toMatchObject({
      total: 2,
      items: [
        { id: 't1', wallet_id: 'w1', developer_id: 'd0', created_at: now, updated_at: now },
        { id: 't2', type: 'DEBIT' },
      ],
    });
    expect(await list('w2', '?type=DEBIT')).toMatchObject({ total: 1, items: [{ id: 't5', updated_at: later }] });
    const logs = (await t.call('GET', '/v1/webhook-logs?limit=10')).body.data.items;
    expect(
      logs.map((l: { id: string; payload: { data: { transaction_id: string; wallet_id: string } } }) => [
        l.id,
        l.payload.data.transaction_id,
        l.payload.data.wallet_id,
      ]),
    ).toEqual([
      ['l1', 't1', 'w1'],
      ['l2', 't2', 'w1'],
      ['l3', 't3', 'w2'],
      ['l5', 't5', 'w2'],
    ]);
    expect((await t.call('GET', '/sandbox/audit')).body.data).toMatchObject({
      ok: true,
      checked: { accounts: 3, transactions: 4, entries: 6 },
    });

    // Accounts keyed by seq in the order they were made; entries and transactions point at them; every seq kept.
    const db = t.sandbox.db;
    const accounts = await db.selectFrom('accounts').select(['seq', 'id']).orderBy('seq').execute();
    expect(accounts.slice(0, 5).map((a) => a.id)).toEqual(['a-provider', 'w1', 'w2', 'b-provider', 'x1']);
    const idOf = new Map(accounts.map((a) => [a.seq, a.id]));
    const entries = await db.selectFrom('entries').select(['seq', 'account_seq']).orderBy('seq').execute();
    expect(entries.map((e) => [e.seq, idOf.get(e.account_seq)])).toEqual([
      [1, 'w1'],
      [2, 'a-provider'],
      [3, 'w1'],
      [4, 'w2'],
      [5, 'w2'],
      [6, 'a-provider'],
      [7, 'x1'],
      [8, 'b-provider'],
    ]);
    const rows = await db
      .selectFrom('transactions')
      .select(['seq', 'id', 'account_seq', 'posting_seq', 'entry_seq', 'created_at', 'updated_at'])
      .orderBy('seq')
      .execute();
    const [made, changed] = [Date.parse(now), Date.parse(later)];
    expect(
      rows.map((r) => [r.seq, r.id, idOf.get(r.account_seq), r.posting_seq, r.entry_seq, r.created_at, r.updated_at]),
    ).toEqual([
      [1, 't1', 'w1', 1, 1, made, null],
      [2, 't2', 'w1', 2, 3, made, null],
      [3, 't3', 'w2', 2, 4, made, null],
      [5, 't5', 'w2', 3, 5, made, changed],
      [6, 't6', 'x1', 4, 7, made, null],
    ]);
    expect(await db.selectFrom('postings').select(['seq', 'created_at']).orderBy('seq').execute()).toEqual(
      [1, 2, 3, 4].map((seq) => ({ seq, created_at: made })),
    );
    const next = await t.call('POST', '/v1/wallets/w1/transfer', {
      destination_account_number: '0000000027',
      amount: 100,
    });
    expect(next.status).toBe(200);
    expect(await db.selectFrom('transactions').select('seq').orderBy('seq', 'desc').limit(2).execute()).toEqual([
      { seq: 11 },
      { seq: 10 },
    ]);
  });
});

describe('a database made before 0019 with a time the API could not show again', () => {
  it('is refused as a snapshot, and nothing changes', async () => {
    const w = await createWallet(t, 1_000);
    const file = join(dir, 'odd-time.db');
    const raw = new SQLite(file);
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    expect(
      (
        await new Migrator({ db: old, provider: migrationProvider }).migrateTo(
          '0016c_transactions_updated_only_when_changed',
        )
      ).error,
    ).toBeUndefined();
    // Written by hand, not by Date.prototype.toISOString: stored as milliseconds it would come back as '2026-06-01T10:00:00.000Z'.
    const odd = '2026-06-01T10:00:00Z';
    raw.exec(`
      INSERT INTO developers (id, business_name, webhook_url, webhook_secret, created_at)
        VALUES ('d0', 'SANDBOX', NULL, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '${odd}');
      INSERT INTO settings (key, value) VALUES ('sandbox_developer_id', 'd0');
      INSERT INTO accounts (id, developer_id, kind, balance, floor_zero, created_at) VALUES
        ('a-provider', 'd0', 'PROVIDER_SETTLEMENT', -10, 0, '${odd}'), ('w1', 'd0', 'WALLET', 10, 1, '${odd}');
      INSERT INTO wallets (id, developer_id, customer_reference, first_name, last_name, email, label, account_number, bank_code, bank_name,
        account_name, currency, status, system_prompt, allow_transfers_out, created_at) VALUES
        ('w1', 'd0', 'old-1', 'Old', 'Timer', 'old@example.com', 'Old Timer', '0000000019', '035', 'Wema Bank', 'SANDBOX / OLD TIMER', 'NGN',
          'ACTIVE', '', 1, '${odd}');
      INSERT INTO postings (seq, developer_id, kind, created_at) VALUES (1, 'd0', 'INBOUND', '2026-06-01T10:00:00.000Z');
      INSERT INTO entries (seq, posting_seq, account_id, amount) VALUES (1, 1, 'w1', 10), (2, 1, 'a-provider', -10);
      INSERT INTO transactions (seq, id, developer_id, wallet_id, posting_seq, entry_seq, type, amount, balance_before, balance_after, currency, status,
        provider_reference, sender_name, sender_account, raw_narration, created_at) VALUES
        (1, 't1', 'd0', 'w1', 1, 1, 'CREDIT', 10, 0, 10, 'NGN', 'SETTLED', '000013260601100000000000000001', 'SENDER', '0123456789', 'memo', '${odd}');
    `);
    raw.close();
    const r = await t.call('POST', '/sandbox/snapshots/restore', { file });
    expect([r.status, r.body.detail.code, r.body.detail.message]).toEqual([
      422,
      'SNAPSHOT_INVALID',
      'file: was made by a newer version of ledger, or its schema cannot be migrated (database migration ' +
        '0019b_ledger_times_as_integers failed: Error: transactions: 0 of 1 rows could be carried over)',
    ]);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000);
  });
});

describe('the temporary directory of an in-process sandbox', () => {
  it('is removed when the sandbox closes', async () => {
    const s = await createTestSandbox({ seed: 'temporary' });
    await s.call('POST', '/sandbox/snapshots', { name: 'gone' });
    const snapshotDir = s.app.snapshots.dir;
    expect(existsSync(snapshotDir)).toBe(true);
    await s.close();
    expect(existsSync(snapshotDir)).toBe(false);
  });
});
