import SQLite from 'better-sqlite3';
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, SandboxError, startSandbox } from '../../src/index.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** A request to a sandbox with its key, as a test suite's own client would make it. */
async function api(s: RunningSandbox, method: string, path: string, body?: unknown) {
  const response = await fetch(`${s.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': s.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as any };
}
const wallet = (ref: string) => ({
  customer_reference: ref,
  first_name: 'In',
  last_name: 'Process',
  email: `${ref}@example.com`,
});

describe('startSandbox: two sandboxes in one process', () => {
  let dir: string;
  let memory: RunningSandbox;
  let file: RunningSandbox;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-in-process-'));
    [memory, file] = await Promise.all([
      startSandbox({ seed: 7 }),
      startSandbox({ seed: 7, db: join(dir, 'sandbox.db'), settlementDelaySeconds: 30 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([memory.stop(), file.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('each has its own database, port, key and secret; the same seed gives both the same ids', async () => {
    expect(memory.baseUrl).not.toBe(file.baseUrl);
    expect(memory.apiKey).not.toBe(file.apiKey);
    expect(memory.apiKey).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(memory.webhookSecret).not.toBe(file.webhookSecret);
    expect(memory.webhookSecret).toMatch(/^whsec_/);
    const inMemory = (await api(memory, 'POST', '/v1/wallets', wallet('same'))).body.data;
    expect((await api(file, 'GET', '/sandbox/wallets')).body.data.total).toBe(0);
    const onFile = (await api(file, 'POST', '/v1/wallets', wallet('same'))).body.data;
    expect([onFile.id, onFile.account_number, onFile.created_at]).toEqual([
      inMemory.id,
      inMemory.account_number,
      '2026-01-01T00:00:00.000Z',
    ]);
    expect((await api(memory, 'GET', `/v1/wallets/${inMemory.id}`, undefined)).status).toBe(200);
    // One sandbox's key means nothing to the other.
    expect((await fetch(`${file.baseUrl}/sandbox/keys`, { headers: { 'x-api-key': memory.apiKey } })).status).toBe(401);
  });

  it('advance() moves only its own clock and runs its own due work', async () => {
    const w = (await api(file, 'POST', '/v1/wallets', wallet('payer'))).body.data;
    await api(file, 'POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 100_000 });
    const payout = (
      await api(file, 'POST', `/v1/wallets/${w.id}/transfer`, {
        destination_account_number: '1111111111',
        destination_bank_code: '058',
        amount: 10_000,
      })
    ).body.data;
    expect(payout.status).toBe('PENDING');
    expect(await file.advance('29s')).toEqual({ now: '2026-01-01T00:00:29.000Z', offset_seconds: 29 });
    expect((await api(file, 'GET', `/v1/transactions/${payout.transaction_id}`)).body.data.status).toBe('PENDING');
    await file.advance(1);
    expect((await api(file, 'GET', `/v1/transactions/${payout.transaction_id}`)).body.data.status).toBe('FAILED');
    expect((await api(memory, 'GET', '/sandbox/clock')).body.data.offset_seconds).toBe(0);
    // Each is refused as `POST /sandbox/clock/advance` refuses it, not thrown as a plain RangeError.
    for (const bad of ['soon', '-5s', '0s', 0, -5]) {
      await expect(file.advance(bad), String(bad)).rejects.toMatchObject({
        name: 'SandboxError',
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    await expect(file.advance('soon')).rejects.toThrow(/90s, 5m/);
    await expect(file.advance(0)).rejects.toThrow(/^VALIDATION_ERROR: seconds must be at least 0\.001/);
    expect(await file.advance('0.5s')).toEqual({ now: '2026-01-01T00:00:30.500Z', offset_seconds: 30.5 });
    expect(await file.audit()).toMatchObject({ ok: true, problems: [] });
  });

  it('snapshot.save/restore put one sandbox back without touching the other; the key keeps working', async () => {
    const before = (await api(memory, 'GET', '/sandbox/wallets')).body.data;
    expect(await memory.snapshot.save('base')).toMatchObject({ name: 'base', saved_at: '2026-01-01T00:00:00.000Z' });
    await api(memory, 'POST', '/v1/wallets', wallet('later'));
    expect(await memory.snapshot.list()).toEqual([expect.objectContaining({ name: 'base' })]);
    await memory.snapshot.restore('base');
    expect((await api(memory, 'GET', '/sandbox/wallets')).body.data).toEqual(before);
    expect((await api(file, 'GET', '/sandbox/wallets')).body.data.total).toBe(2);
    await expect(memory.snapshot.restore('missing')).rejects.toMatchObject({
      name: 'SandboxError',
      status: 404,
      code: 'NOT_FOUND',
    });
    await memory.snapshot.delete('base');
    expect(await memory.snapshot.list()).toEqual([]);
    expect(SandboxError).toBeTypeOf('function');
  });

  it('starts from a snapshot file with a fixed key', async () => {
    const fixture = join(dir, 'fixture.db');
    await file.snapshot.save({ file: fixture });
    const key = `svc_test_${'Fixture'.padEnd(32, '1')}`;
    const copy = await startSandbox({ seed: 9, snapshot: { file: fixture }, apiKey: key });
    try {
      expect(copy.apiKey).toBe(key);
      expect((await api(copy, 'GET', '/sandbox/wallets')).body.data).toEqual(
        (await api(file, 'GET', '/sandbox/wallets')).body.data,
      );
      expect(copy.webhookSecret).toBe(file.webhookSecret);
      expect(await copy.audit()).toMatchObject({ ok: true });
    } finally {
      await copy.stop();
    }
  });

  it("restores another sandbox's snapshot, in either format: its owner, secret and wallets are then this one's, and the key keeps working", async () => {
    for (const format of ['sqlite', 'json'] as const) {
      const saved = join(dir, `other.${format}`);
      await file.snapshot.save({ file: saved }, { format });
      const other = await startSandbox({ seed: 11 });
      try {
        // The secret is the one of the owner the restore brings: the owner it replaced no longer exists.
        await other.snapshot.restore({ file: saved });
        expect([other.developerId, other.webhookSecret]).toEqual([file.developerId, file.webhookSecret]);
        expect((await api(other, 'GET', '/sandbox/wallets')).body.data).toEqual(
          (await api(file, 'GET', '/sandbox/wallets')).body.data,
        );
        expect(await other.audit()).toMatchObject({ ok: true });
      } finally {
        await other.stop();
      }
    }
  });

  it('refuses bad options before starting anything, each with a SandboxError', async () => {
    const refused = { name: 'SandboxError', status: 400, code: 'VALIDATION_ERROR' };
    await expect(startSandbox({ seed: 'seven' })).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/--seed/),
    });
    await expect(startSandbox({ clock: 'real', clockStart: '2026-01-01T00:00:00Z' })).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/--clock-start/),
    });
    await expect(startSandbox({ apiKey: 'svc_live_x' })).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/--api-key/),
    });
    for (const webhookSecret of [
      'whsec_short',
      `whsec_${Buffer.alloc(23, 1).toString('base64')}`,
      `whsec_${Buffer.alloc(65, 1).toString('base64')}`,
      `whsec_${'A'.repeat(40)}!`,
      Buffer.alloc(32, 1).toString('base64'),
    ]) {
      await expect(startSandbox({ webhookSecret }), webhookSecret).rejects.toMatchObject({
        ...refused,
        message: expect.stringMatching(/--webhook-secret must be whsec_/),
      });
    }
    await expect(startSandbox({ snapshot: 'missing' })).rejects.toMatchObject({
      name: 'SandboxError',
      status: 404,
      code: 'NOT_FOUND',
    });
    await expect(file.snapshot.save({ file: join(dir, 'no-such-dir', 'x.db') })).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/ENOENT: no such directory/),
    });
  });

  it("webhookSecret fixes the owner's secret under a seed; the receiver takes deliveries signed with it", async () => {
    const webhookSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const fixed = await startSandbox({ seed: 7, webhookSecret });
    try {
      expect(fixed.webhookSecret).toBe(webhookSecret);
      expect((await api(fixed, 'GET', '/sandbox/webhook-endpoint')).body.data.secret).toBe(webhookSecret);
      const w = (await api(fixed, 'POST', '/v1/wallets', wallet('signed'))).body.data;
      await api(fixed, 'POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 500 });
      await fixed.advance('1s');
      const events = (await api(fixed, 'GET', '/sandbox/receiver/events')).body.data;
      expect(events.items.map((e: { signature_valid: boolean }) => e.signature_valid)).toEqual([true]);
      expect(await fixed.audit()).toMatchObject({ ok: true });
    } finally {
      await fixed.stop();
    }
  });

  it('refuses a snapshot whose books do not balance, at start and on restore (SNAPSHOT_INVALID), and loads it with force and a warning', async () => {
    const w = (await api(file, 'POST', '/v1/wallets', wallet('unbalanced'))).body.data;
    await api(file, 'POST', '/sandbox/inbound-transfers', { account_number: w.account_number, amount: 1_000 });
    const edited = join(dir, 'edited.db');
    await file.snapshot.save({ file: edited });
    const raw = new SQLite(edited);
    raw.prepare("UPDATE accounts SET balance = balance + 1000000000 WHERE id = ? AND kind = 'WALLET'").run(w.id);
    raw.close();
    const invalid = {
      name: 'SandboxError',
      status: 422,
      code: 'SNAPSHOT_INVALID',
      message: expect.stringContaining(`WALLET account ${w.id} has balance 1000001000`),
    };
    await expect(startSandbox({ snapshot: { file: edited }, log: () => {} })).rejects.toMatchObject(invalid);
    await expect(memory.snapshot.restore({ file: edited })).rejects.toMatchObject(invalid);

    const lines: string[] = [];
    const forced = await startSandbox({ snapshot: { file: edited }, force: true, log: (line) => lines.push(line) });
    try {
      expect((await api(forced, 'GET', `/v1/wallets/${w.id}`)).body.data.balance).toBe(1_000_001_000);
      expect(lines).toEqual([
        `Warning: restoring ${edited} with --force: the audit of its books (that they balance) was skipped`,
      ]);
      expect(await forced.snapshot.restore({ file: edited }, { force: true })).toMatchObject({ file: edited });
    } finally {
      await forced.stop();
    }
  });
});

/** The package imports itself by name, as a project that installed it would. */
const PACKAGE = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;

describe('the package entry, in a process of its own', () => {
  it('loads no command-line code, runs two sandboxes, and exits by itself once both are stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-entry-'));
    const trace = join(dir, 'modules.txt');
    // A resolve hook that writes down every module the process loads.
    const hook =
      `import { appendFileSync } from 'node:fs'; ` +
      `export async function resolve(s, c, next) { const r = await next(s, c); ` +
      `appendFileSync(process.env.TRACE, r.url + '\\n'); return r; }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const { startSandbox } = await import(${JSON.stringify(PACKAGE)});
      const [a, b] = await Promise.all([startSandbox({ seed: 1 }), startSandbox({ db: ${JSON.stringify(join(dir, 'b.db'))} })]);
      const wallet = await fetch(a.baseUrl + '/v1/wallets', {
        method: 'POST',
        headers: { 'x-api-key': a.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ customer_reference: 'x', first_name: 'A', last_name: 'B', email: 'a@b.ng' }),
      });
      await fetch(a.baseUrl + '/sandbox/inbound-transfers', {
        method: 'POST',
        headers: { 'x-api-key': a.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ account_number: (await wallet.json()).data.account_number, amount: 500 }),
      });
      await a.advance('1s');
      await b.snapshot.save('s');
      await b.snapshot.restore('s');
      console.log(JSON.stringify({ a: (await a.audit()).ok, b: (await b.audit()).ok }));
      await a.stop();
      await b.stop();
    `;
    try {
      const run = await execa(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ROOT,
        env: { TRACE: trace },
        timeout: 60_000,
        reject: false,
      });
      expect([run.exitCode, run.timedOut, run.stderr]).toEqual([0, false, '']);
      expect(JSON.parse(run.stdout)).toEqual({ a: true, b: true });
      const loaded = readFileSync(trace, 'utf8').split('\n');
      expect(loaded).toContainEqual(expect.stringMatching(/\/dist\/index\.js$/));
      expect(loaded).toContainEqual(expect.stringMatching(/node_modules\/fastify\//));
      expect(
        loaded.filter((url) =>
          /node_modules\/(commander|@inquirer|chalk|cli-table3)\/|\/dist\/(commands|client|cli|program)[/.]/.test(url),
        ),
      ).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
