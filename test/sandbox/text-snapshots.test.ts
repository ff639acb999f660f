import SQLite from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveFile } from '../../src/client/save-file.js';
import { migrationProvider } from '../../src/engine/db/migrations/index.js';
import {
  createTestSandbox,
  createWallet,
  TEST_BACKEND,
  type TestSandbox,
  useSandbox,
  walletBody,
} from '../helpers/sandbox.js';

const t = useSandbox({ auditAfter: true });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-text-snapshots-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The whole sandbox downloaded into `file` (GET /sandbox/database), as `snapshot save --file` does. */
async function download(s: TestSandbox, file: string, format: 'sqlite' | 'json' = 'json') {
  const r = await s.app.inject({
    method: 'GET',
    url: `/sandbox/database?format=${format}`,
    headers: { 'x-api-key': s.key },
  });
  expect(r.statusCode).toBe(200);
  await saveFile(file, r.rawPayload);
  return r;
}

const named = (s: TestSandbox, name: string) => readFileSync(join(s.app.snapshots.dir, `${name}.jsonl`), 'utf8');

/** The lines of `b` that `a` does not have, and those of `a` that `b` does not: what a diff shows. */
function changedLines(a: string, b: string): string[] {
  const count = (text: string) =>
    text.split('\n').reduce((m, line) => m.set(line, (m.get(line) ?? 0) + 1), new Map<string, number>());
  const [before, after] = [count(a), count(b)];
  const changed: string[] = [];
  for (const [one, other, sign] of [
    [before, after, '-'],
    [after, before, '+'],
  ] as const) {
    for (const [line, n] of one) for (let i = 0; i < n - (other.get(line) ?? 0); i++) changed.push(`${sign}${line}`);
  }
  return changed;
}

/** What the owner reads of its books, to compare two states. */
async function view(s: TestSandbox, walletIds: string[]) {
  const seen: Record<string, unknown> = {};
  for (const url of [
    '/sandbox/wallets?limit=100',
    '/v1/transactions?limit=100',
    '/v1/suspense?limit=100',
    '/v1/agents?limit=100',
    '/v1/webhook-logs?limit=100',
    '/sandbox/receiver/events?limit=100',
    '/sandbox/clock',
  ]) {
    seen[url] = (await s.call('GET', url)).body;
  }
  for (const id of walletIds) seen[id] = (await s.call('GET', `/v1/wallets/${id}/transactions?limit=100`)).body;
  return seen;
}

/** A sandbox with a bit of everything: wallets, a credit, suspense, an agent, a pending payout. */
async function busy(s: TestSandbox) {
  const a = await createWallet(s, 90_000);
  const b = await createWallet(s);
  await s.call('POST', `/v1/wallets/${a.id}/agents`, {
    name: 'notify',
    trigger: 'ON_CREDIT',
    action: 'WEBHOOK_NOTIFY',
  });
  await s.call('POST', '/sandbox/inbound-transfers', {
    account_number: a.account_number,
    amount: 700,
    narration: 'asdfgh',
  });
  const payout = (
    await s.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: '2222222222',
      destination_bank_code: '058',
      amount: 1_000,
    })
  ).body.data;
  return { a, b, payout };
}

describe('a text snapshot (format json)', () => {
  it('is JSON Lines, and the same state saved twice gives the same bytes', async () => {
    // A header with the schema and nothing volatile, rows by table and key, counters, an end line.
    const { a } = await busy(t);
    for (const amount of [100, 200])
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: a.account_number,
        amount,
        narration: 'salary',
      });
    const saved = await t.call('POST', '/sandbox/snapshots', { name: 'base', format: 'json' });
    expect(saved.body.data).toEqual({
      name: 'base',
      file: null,
      format: 'json',
      size_bytes: expect.any(Number),
      saved_at: null,
    });
    const first = named(t, 'base');
    await t.call('POST', '/sandbox/clock/advance', { seconds: 0 });
    await t.call('POST', '/sandbox/snapshots', { name: 'base', format: 'json' });
    expect(named(t, 'base')).toBe(first);
    const file = join(dir, 'base.jsonl');
    const r = await download(t, file);
    expect([r.headers['content-type'], r.headers['content-disposition']]).toEqual([
      'application/jsonl',
      'attachment; filename="sandbox.jsonl"',
    ]);
    expect(readFileSync(file, 'utf8')).toBe(first);

    const lines = first.split('\n');
    const last = Object.keys(await migrationProvider.getMigrations())
      .sort()
      .at(-1);
    expect(lines[0]).toBe(`{"format":"ledger-sandbox-snapshot","version":1,"schema":"${last}"}`);
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toBe('{"end":"ledger-sandbox-snapshot"}');
    const records = lines.slice(1, -2).map((line) => JSON.parse(line));
    const tables = records.filter((r) => r.table).map((r) => r.table as string);
    // Parents first: every developer before its accounts, every account before its wallet.
    expect(tables.indexOf('developers')).toBeLessThan(tables.indexOf('accounts'));
    expect(tables.indexOf('accounts')).toBeLessThan(tables.indexOf('wallets'));
    const transactions = records.filter((r) => r.table === 'transactions').map((r) => r.row.seq);
    expect(transactions).toEqual([...transactions].sort((x, y) => x - y));
    // Keys only as hashes; no save time, path or process id.
    expect(first).not.toContain(t.key);
    expect(first).not.toContain(dir);
    expect(first).not.toContain(String(process.pid));
    expect(records.filter((r) => r.table === 'settings').map((r) => r.row.key)).not.toContain('snapshot');
    // Money as JSON integers; ids kept as bytes as hex.
    const wallet = records.find((r) => r.table === 'accounts' && r.row.kind === 'WALLET' && r.row.balance > 0);
    expect(typeof wallet.row.balance).toBe('number');
    expect(records.find((r) => r.table === 'events').row.id).toMatch(/^[0-9a-f]+$/);
    // Rows in their key's order, numbers as numbers (text would put 10 before 9).
    const entries = records.filter((r) => r.table === 'entries').map((r) => r.row.seq);
    expect(entries.length).toBeGreaterThan(9);
    expect(entries).toEqual([...entries].sort((x, y) => x - y));
  });

  it('shows a credit as a few changed lines, and a wallet locked as one', async () => {
    const { a } = await busy(t);
    await t.call('POST', '/sandbox/snapshots', { name: 'before', format: 'json' });
    await t.call('PATCH', `/sandbox/wallets/${a.id}`, { allow_transfers_out: false });
    await t.call('POST', '/sandbox/snapshots', { name: 'locked', format: 'json' });
    const locked = changedLines(named(t, 'before'), named(t, 'locked'));
    expect(locked).toEqual([
      expect.stringMatching(/^-\{"table":"wallets"/),
      expect.stringMatching(/^\+\{"table":"wallets".*"allow_transfers_out":0/),
    ]);

    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: a.account_number,
      amount: 2_500,
      narration: 'rent for may',
    });
    await t.call('POST', '/sandbox/snapshots', { name: 'credited', format: 'json' });
    const credited = changedLines(named(t, 'locked'), named(t, 'credited'));
    // The rows a credit writes or changes, and nothing else: no header, counter or end line moves.
    expect(credited.length).toBeLessThanOrEqual(24);
    expect([...new Set(credited.map((line) => JSON.parse(line.slice(1)).table))].sort()).toEqual(
      [
        'accounts',
        'agent_runs',
        'agents',
        'entries',
        'events',
        'inbound_transfers',
        'postings',
        'settings',
        'transaction_counts',
        'transactions',
        'webhook_log_counts',
        'webhook_logs',
      ].sort(),
    );
    expect(named(t, 'credited').split('\n').length).toBeGreaterThan(50);
  });
});

describe('restoring a text snapshot', () => {
  it('puts back the same state as the binary one would: every answer, the pending payout, the ids that follow, the keys in use', async () => {
    const { a, b, payout } = await busy(t);
    await t.call('POST', '/sandbox/snapshots', { name: 'base', format: 'json' });
    const before = await view(t, [a.id, b.id]);
    const next = (await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'after-save' }))).body.data;
    await t.call('POST', `/v1/wallets/${a.id}/transfer`, {
      destination_account_number: b.account_number,
      amount: 5_000,
    });
    await t.call('POST', '/sandbox/clock/advance', { seconds: 3_600 });
    t.key = (await t.call('POST', '/sandbox/keys/rotate')).body.data.api_key;
    expect(await view(t, [a.id, b.id])).not.toEqual(before);

    const restored = await t.call('POST', '/sandbox/snapshots/base/restore');
    expect([restored.status, restored.body.data.format]).toEqual([200, 'json']);
    expect(await view(t, [a.id, b.id])).toEqual(before);
    expect((await t.call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
    expect((await t.call('GET', `/v1/transactions/${payout.transaction_id}`)).body.data.status).toBe('PENDING');
    const again = (await t.call('POST', '/v1/wallets', walletBody({ customer_reference: 'after-save' }))).body.data;
    expect([again.id, again.account_number]).toEqual([next.id, next.account_number]);
    expect((await t.call('POST', `/sandbox/payouts/${payout.transaction_id}/settle`)).status).toBe(200);
  });

  it('restores a file into another sandbox, whose owner takes the snapshot owner’s keys; the file saved there again is the same bytes', async () => {
    const w = await createWallet(t, 12_345);
    const file = join(dir, 'fixture.jsonl');
    await download(t, file);
    const elsewhere = await createTestSandbox({ seed: 'elsewhere' });
    try {
      const r = await elsewhere.call('POST', '/sandbox/snapshots/restore', { file });
      expect(r.body.data).toEqual({
        name: null,
        file,
        format: 'json',
        size_bytes: statSync(file).size,
        saved_at: null,
      });
      expect((await elsewhere.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(12_345);
      expect((await elsewhere.call('GET', '/sandbox/keys')).body.data.developer_id).toBe(t.developerId);
      expect((await elsewhere.call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
      const copy = join(dir, 'copy.jsonl');
      await download(elsewhere, copy);
      // Only the key's hash differs: the restoring owner's key carried over the snapshot owner's.
      expect(
        changedLines(readFileSync(file, 'utf8'), readFileSync(copy, 'utf8')).map(
          (line) => JSON.parse(line.slice(1)).table,
        ),
      ).toEqual(['api_keys', 'api_keys']);
    } finally {
      await elsewhere.close();
    }
  });

  // Made through a binary snapshot, which a PostgreSQL sandbox neither saves nor loads.
  it.runIf(TEST_BACKEND === 'sqlite')(
    'keeps an integer beyond 2^53 exact, as a string of digits, through a save and a restore',
    async () => {
      await createWallet(t, 1_000);
      const binary = join(dir, 'big.db');
      await download(t, binary, 'sqlite');
      const raw = new SQLite(binary);
      // Books that do not balance any more, loaded with force: only the number's trip is under test.
      raw.prepare("UPDATE accounts SET balance = 1152921504606846977 WHERE kind = 'FEE_INCOME'").run();
      raw.close();
      expect((await t.call('POST', '/sandbox/snapshots/restore', { file: binary, force: true })).status).toBe(200);
      await t.call('POST', '/sandbox/snapshots', { name: 'big', format: 'json' });
      const text = named(t, 'big');
      expect(text).toContain('"kind":"FEE_INCOME","balance":"1152921504606846977"');
      expect((await t.call('POST', '/sandbox/snapshots/big/restore', { force: true })).status).toBe(200);
      await t.call('POST', '/sandbox/snapshots', { name: 'big', format: 'json' });
      expect(named(t, 'big')).toBe(text);
      await t.call('POST', '/sandbox/snapshots/restore', { file: await balanced(dir), force: true });
    },
  );

  it('refuses one edited so its books do not balance (422 SNAPSHOT_INVALID naming the wallet), changing nothing; --force loads it', async () => {
    const w = await createWallet(t, 1_000);
    const file = join(dir, 'edited.jsonl');
    await download(t, file);
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text.replace(
        `"id":"${w.id}","developer_id":"${t.developerId}","kind":"WALLET","balance":1000,`,
        `"id":"${w.id}","developer_id":"${t.developerId}","kind":"WALLET","balance":1000001000,`,
      ),
    );
    expect(readFileSync(file, 'utf8')).not.toBe(text);
    const r = await t.call('POST', '/sandbox/snapshots/restore', { file });
    expect([r.status, r.body.detail.code, r.body.detail.fields]).toEqual([
      422,
      'SNAPSHOT_INVALID',
      [{ field: 'file', message: 'does not balance' }],
    ]);
    expect(r.body.detail.message).toContain(
      `WALLET account ${w.id} has balance 1000001000 but its entries sum to 1000`,
    );
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000);
    expect((await t.call('POST', '/sandbox/snapshots/restore', { file, force: true })).status).toBe(200);
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000_001_000);
    await t.call('POST', '/sandbox/snapshots/restore', { file: await balanced(dir), force: true });
  });

  it('refuses a damaged file as SNAPSHOT_INVALID naming the line, with --force too, and changes nothing', async () => {
    const w = await createWallet(t, 1_000);
    const file = join(dir, 'base.jsonl');
    await download(t, file);
    const lines = readFileSync(file, 'utf8').split('\n');
    const n = lines.length - 1; // the last is the empty string after the final newline
    const edited = (change: (l: string[]) => string[]) => change([...lines]).join('\n');
    const cases: [string, string][] = [
      [lines.join('\n').slice(0, Math.floor(lines.join('\n').length * 0.6)), ''],
      [
        edited((l) => l.slice(0, n - 3)),
        `line ${n - 2} is missing: the file ends before its end line (it was cut short)`,
      ],
      [
        edited((l) => ((l[4] = '{"table":"wallets","row":{"seq":1'), l)),
        'line 5 is not a JSON object (the file may be cut short or edited by hand)',
      ],
      [edited((l) => ((l[2] = l[2]!.replace('"id":', '"ident":')), l)), 'line 3 has a column'],
      [
        edited((l) => ((l[1] = '{"table":"nope","row":{}}'), l)),
        'line 2 names a table this schema does not have (nope)',
      ],
      [edited((l) => [l[0]!, ...l.slice(2)]), 'is a'],
      [
        edited((l) => ((l[0] = l[0]!.replace(/"schema":"[^"]+"/, '"schema":"9999_future"')), l)),
        'line 1: its schema 9999_future is not one this version of ledger knows',
      ],
      ['{"format":"something else"}\n', 'line 1 is not the header of a ledger sandbox snapshot'],
    ];
    for (const [text, message] of cases) {
      writeFileSync(file, text);
      for (const force of [false, true]) {
        const r = await t.call('POST', '/sandbox/snapshots/restore', { file, force });
        expect([r.status, r.body.detail.code]).toEqual([422, 'SNAPSHOT_INVALID']);
        expect(r.body.detail.message).toMatch(/^file: line \d+/);
        expect(r.body.detail.message).toContain(message);
      }
    }
    expect((await t.call('GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000);
  });
});

describe('named snapshots in either format', () => {
  // Both formats side by side: a PostgreSQL sandbox saves text only.
  it.runIf(TEST_BACKEND === 'sqlite')(
    'are listed with their format; a save under a name in the other format replaces it; delete removes it',
    async () => {
      await createWallet(t, 1_000);
      await t.call('POST', '/sandbox/snapshots', { name: 'a', format: 'json' });
      await t.call('POST', '/sandbox/snapshots', { name: 'b' });
      const listed = (await t.call('GET', '/sandbox/snapshots')).body.data.items.map(
        (s: { name: string; format: string }) => [s.name, s.format],
      );
      expect(listed).toEqual([
        ['a', 'json'],
        ['b', 'sqlite'],
      ]);
      await t.call('POST', '/sandbox/snapshots', { name: 'a' });
      await t.call('POST', '/sandbox/snapshots', { name: 'b', format: 'json' });
      expect(readdirSync(t.app.snapshots.dir).sort()).toEqual(['a.db', 'b.jsonl']);
      expect((await t.call('POST', '/sandbox/snapshots/b/restore')).body.data.format).toBe('json');
      expect((await t.call('DELETE', '/sandbox/snapshots/b')).status).toBe(200);
      expect(readdirSync(t.app.snapshots.dir)).toEqual(['a.db']);
      const bad = await t.call('POST', '/sandbox/snapshots', { name: 'c', format: 'csv' });
      expect([bad.status, bad.body.detail.fields]).toEqual([
        400,
        [{ field: 'format', message: 'must be sqlite or json' }],
      ]);
    },
  );
});

/** A snapshot of a fresh sandbox's balanced books, to restore before the audit that ends a test that forced unbalanced ones in. */
async function balanced(where: string): Promise<string> {
  const fresh = await createTestSandbox({ seed: 'balanced' });
  try {
    const file = join(where, 'balanced.jsonl');
    await download(fresh, file);
    return file;
  } finally {
    await fresh.close();
  }
}
