import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureSandboxDeveloper, openSandbox } from '../../src/sandbox/sandbox.js';
import { useCli } from '../helpers/cli.js';

const cli = useCli('each');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A database big enough that copying it takes a while: 30,000 received webhooks of 2 KB (not money, so the books stay as they are). */
async function bigDatabase(path: string): Promise<void> {
  const sandbox = await openSandbox({ dbPath: path, seed: 'big' });
  const { developerId } = await ensureSandboxDeveloper(sandbox);
  await sql`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
    INSERT INTO receiver_events (id, developer_id, webhook_id, event_type, headers, body, signature_valid, response_status, created_at)
    SELECT 'padding-' || i, ${developerId}, NULL, NULL, '{}', hex(randomblob(1000)), 1, 200, '2026-01-01T00:00:00.000Z' FROM n`.execute(
    sandbox.db,
  );
  // The receiver's counter moves with its rows, as the receiver itself keeps it (the audit checks it).
  await sql`INSERT INTO receiver_event_counts (developer_id, n) VALUES (${developerId}, 30000)
    ON CONFLICT (developer_id) DO UPDATE SET n = n + excluded.n`.execute(sandbox.db);
  await sandbox.close();
}

describe('a save killed half-way', () => {
  it('leaves the previous snapshot of that name intact: same bytes, and it restores', async () => {
    const db = join(cli.dir, 'big.db');
    await bigDatabase(db);
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--seed', '5'])).exitCode).toBe(
      0,
    );
    const {
      base_url: baseUrl,
      api_key: apiKey,
      pid,
    } = JSON.parse(readFileSync(join(cli.dir, '.ledger', 'sandbox.json'), 'utf8'));
    const base = join(cli.dir, '.ledger', 'snapshots', 'base.db');
    expect((await cli.json(['sandbox', 'snapshot', 'save', 'base'])).name).toBe('base');
    const before = sha(base);
    const later = await cli.json([
      'wallets',
      'create',
      '--customer-reference',
      'after-base',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--email',
      'a@b.ng',
    ]);

    // Save again under the same name, and kill the server while the copy is being written.
    const saving = fetch(`${baseUrl}/sandbox/snapshots`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: '{"name":"base"}',
    }).catch(() => 'killed');
    const temporary = () =>
      readdirSync(join(cli.dir, '.ledger', 'snapshots')).find((entry) => entry.startsWith('.base.db.tmp-'));
    while (!temporary()) await new Promise((resolve) => setTimeout(resolve, 2));
    process.kill(pid, 'SIGKILL');
    expect(await saving).toBe('killed');
    expect(sha(base)).toBe(before);

    // A new server on the same database: the old snapshot lists, restores, and audits clean.
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--seed', '5'])).exitCode).toBe(
      0,
    );
    expect((await cli.json(['sandbox', 'snapshot', 'list'])).items).toEqual([
      expect.objectContaining({ name: 'base' }),
    ]);
    expect((await cli.run(['wallets', 'get', later.id])).exitCode).toBe(0);
    expect((await cli.json(['sandbox', 'snapshot', 'restore', 'base'])).name).toBe('base');
    expect((await cli.run(['wallets', 'get', later.id])).stderr).toMatch(/^Error \[NOT_FOUND\]/);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    // The next save of that name clears what the killed one left.
    expect(temporary()).toBeDefined();
    await cli.json(['sandbox', 'snapshot', 'save', 'base']);
    expect(temporary()).toBeUndefined();
    expect(existsSync(base)).toBe(true);
  }, 120_000);
});

describe('snapshot save --file', () => {
  it('the command downloads the sandbox and writes the file itself, never over a served database', async () => {
    const db = join(cli.dir, 'live.db');
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--seed', '5'])).exitCode).toBe(
      0,
    );
    const wallet = await cli.json([
      'wallets',
      'create',
      '--customer-reference',
      'kept',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--email',
      'a@b.ng',
    ]);
    const saved = await cli.json(['sandbox', 'snapshot', 'save', '--file', 'fixture.db']);
    const fixture = join(cli.dir, 'fixture.db');
    expect(saved).toEqual({
      name: null,
      file: fixture,
      format: 'sqlite',
      size_bytes: readFileSync(fixture).length,
      saved_at: '2026-01-01T00:00:00.000Z',
    });
    // Nothing of it was left in the server's snapshot directory, and the file restores.
    expect(readdirSync(join(cli.dir, '.ledger', 'snapshots'))).toEqual([]);
    await cli.json(['wallets', 'close', wallet.id, '--yes']);
    expect((await cli.json(['sandbox', 'snapshot', 'restore', '--file', 'fixture.db', '--yes'])).file).toBe(fixture);
    expect((await cli.json(['wallets', 'get', wallet.id])).status).toBe('ACTIVE');

    // Over the served database, or one of its files: refused before anything is sent, and the server goes on.
    // The server's own checkpointer may still be moving the restore's pages into live.db, so its
    // bytes are no witness: the server's request log is. The refused saves send nothing.
    const log = join(cli.dir, '.ledger', 'sandbox.log');
    const requestsBefore = readFileSync(log, 'utf8');
    for (const file of ['live.db', 'live.db-wal']) {
      const refused = await cli.run(['sandbox', 'snapshot', 'save', '--file', file]);
      expect([file, refused.exitCode, refused.stderr]).toEqual([
        file,
        2,
        expect.stringMatching(
          /^Error \[USAGE\]: --file .*live\.db(-wal)? is the database of a running sandbox \(pid \d+\): a snapshot is a file of its own/,
        ),
      ]);
    }
    expect(readFileSync(log, 'utf8')).toBe(requestsBefore);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    const nowhere = await cli.run(['sandbox', 'snapshot', 'save', '--file', 'missing/dir/x.db']);
    expect([nowhere.exitCode, nowhere.stderr]).toEqual([
      2,
      expect.stringMatching(/^Error \[USAGE\]: --file .*x\.db cannot be written \(ENOENT: no such directory\)/),
    ]);
    expect(readdirSync(cli.dir).filter((entry) => entry.includes('.tmp-'))).toEqual([]);
  }, 60_000);
});

describe('a snapshot file edited to raise a wallet by 1,000,000,000 kobo', () => {
  it('`snapshot restore --file` and `sandbox start --snapshot` each refuse it, and --force loads it', async () => {
    // The refusal is SNAPSHOT_INVALID naming the wallet, exit 1; what --force loads comes with a warning.
    expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--seed', '5'])).exitCode).toBe(
      0,
    );
    const ada = await cli.json([
      'wallets',
      'create',
      '--customer-reference',
      'ada',
      '--first-name',
      'Ada',
      '--last-name',
      'Obi',
      '--email',
      'ada@example.com',
    ]);
    await cli.json(['credit', ada.id, '1000']);
    const file = join(cli.dir, 'edited.db');
    expect((await cli.run(['sandbox', 'snapshot', 'save', '--file', file])).exitCode).toBe(0);
    const raw = new SQLite(file);
    raw.prepare("UPDATE accounts SET balance = balance + 1000000000 WHERE id = ? AND kind = 'WALLET'").run(ada.id);
    raw.close();
    await cli.json(['credit', ada.id, '500']);
    const problem = `WALLET account ${ada.id} has balance 1000001000 but its entries sum to 1000`;
    const balance = async () => (await cli.json(['wallets', 'get', ada.id])).balance;

    const refused = await cli.run(['sandbox', 'snapshot', 'restore', '--file', file, '--yes']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^Error \[SNAPSHOT_INVALID\]: file: does not balance, so it was not loaded: /);
    expect(refused.stderr.replace(/\s+/g, ' ')).toContain(problem);
    expect(await balance()).toBe(1_500);

    const forced = await cli.run(['sandbox', 'snapshot', 'restore', '--file', file, '--yes', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(forced.stderr.replace(/\s+/g, ' ')).toContain('Warning: --force:');
    expect(await balance()).toBe(1_000_001_000);
    expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);

    const atStart = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--snapshot', file]);
    expect(atStart.exitCode).toBe(1);
    expect(atStart.stderr).toMatch(/^Error \[SNAPSHOT_INVALID\]: file: does not balance/);
    expect(atStart.stderr.replace(/\s+/g, ' ')).toContain(problem);

    expect(
      (await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--snapshot', file, '--force']))
        .exitCode,
    ).toBe(0);
    expect(await balance()).toBe(1_000_001_000);
    expect(readFileSync(join(cli.dir, '.ledger', 'sandbox.log'), 'utf8')).toContain(
      `Warning: restoring ${file} with --force: the audit of its books (that they balance) was skipped`,
    );
  }, 120_000);
});
