import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, createCli } from '../helpers/cli.js';
import { startWebhookApp } from '../helpers/webhook-app.js';

/**
 * A real full disk (decisions: Storage): a small tmpfs, filled up while the sandbox runs on it. Mounting
 * needs root (CI runs as root); where the machine refuses, the same behaviour is covered through
 * the fault-injection seam in test/sandbox/storage-faults.test.ts and idempotency-edges.test.ts.
 */
function mountTmpfs(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Fills the file system until it refuses, in 4 KiB writes. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    // ENOSPC: full
  } finally {
    closeSync(fd);
  }
}

const mount = mountTmpfs();

describe.skipIf(!mount)('a full disk under a running sandbox', () => {
  it('refuses writes with 507, sends no webhook it cannot record, keeps its log small, and resumes by itself with nothing lost', async () => {
    const cli = createCli();
    const app = await startWebhookApp(
      () => '',
      () => 200,
    );
    const db = join(mount!, 'sandbox.db');
    try {
      const started = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--json']);
      expect(started.exitCode, started.stderr).toBe(0);
      const { base_url: base, api_key: key, log_file: logFile } = JSON.parse(started.stdout);
      const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const r = await fetch(`${base}${path}`, {
          method,
          headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: r.status, body: (await r.json()) as any };
      };
      await call('PUT', '/sandbox/webhook-endpoint', { url: app.url });
      const wallet = (
        await call('POST', '/v1/wallets', {
          customer_reference: 'full',
          first_name: 'Ada',
          last_name: 'Obi',
          email: 'ada@example.com',
        })
      ).body.data;
      mkdirSync(join(mount!, 'filler'));
      fill(join(mount!, 'filler', 'a'));
      const logBefore = statSync(logFile).size;

      // Keep writing until the disk refuses one: the WAL has room for a few first.
      let refused: { status: number; body: any } | undefined;
      let accepted = 0;
      for (let i = 0; i < 5000 && !refused; i++) {
        const r = await call(
          'POST',
          '/sandbox/inbound-transfers',
          {
            account_number: wallet.account_number,
            amount: 100,
            narration: `salary ${i}`,
            provider_reference: `FULL-${i}`,
          },
          { 'idempotency-key': `full-${i}` },
        );
        if (r.status === 200) accepted += 1;
        else refused = { ...r, i } as never;
      }
      expect(refused, 'the disk never filled').toBeDefined();
      expect([refused!.status, refused!.body.success, refused!.body.detail.code]).toEqual([507, false, 'STORAGE_FULL']);
      for (let i = 0; i < 50; i++) expect((await call('GET', `/v1/wallets/${wallet.id}`)).status).toBe(200);
      // A small write may still fit in WAL pages a refused one left free: each is either written
      // (and then kept) or refused in the documented shape, never a 500.
      const created: string[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await call('POST', '/v1/wallets', {
          customer_reference: `r${i}`,
          first_name: 'A',
          last_name: 'B',
          email: 'a@b.ng',
        });
        if (r.status === 201) created.push(r.body.data.id);
        else expect([r.status, r.body.detail.code]).toEqual([507, 'STORAGE_FULL']);
      }
      const perEvent = new Map<string, number>();
      for (const r of app.received) perEvent.set(r.id, (perEvent.get(r.id) ?? 0) + 1);
      expect(Math.max(0, ...perEvent.values())).toBeLessThanOrEqual(2);

      rmSync(join(mount!, 'filler'), { recursive: true });
      const refusedIndex = (refused as unknown as { i: number }).i;
      const retry = await call(
        'POST',
        '/sandbox/inbound-transfers',
        {
          account_number: wallet.account_number,
          amount: 100,
          narration: `salary ${refusedIndex}`,
          provider_reference: `FULL-${refusedIndex}`,
        },
        { 'idempotency-key': `full-${refusedIndex}` },
      );
      expect(retry.status).toBe(200);
      await call('POST', '/sandbox/clock/advance', { seconds: 86_400 });
      for (const id of created) expect((await call('GET', `/v1/wallets/${id}`)).status).toBe(200);
      const balance = (await call('GET', `/v1/wallets/${wallet.id}`)).body.data.balance;
      expect(balance).toBe((accepted + 1) * 100);
      expect((await call('GET', '/sandbox/audit')).body.data).toMatchObject({ ok: true });
      const logs = (await call('GET', '/v1/webhook-logs?status=DELIVERED&limit=1')).body.data.total;
      const all = (await call('GET', '/v1/webhook-logs?limit=1')).body.data.total;
      expect(logs).toBe(all);
      // A few lines about the storage, not a stack trace per failure.
      expect(statSync(logFile).size - logBefore).toBeLessThan(64 * 1024);
    } finally {
      await cli.run(['sandbox', 'stop']);
      await app.close();
      cli.cleanup();
      execFileSync('umount', [mount!]);
      rmSync(mount!, { recursive: true, force: true });
    }
  }, 120_000);
});

const small = mountTmpfs();
const stateDisk = mountTmpfs();
const readOnlyDisk = mountTmpfs();

// Both are mounted as this file loads, whichever of its tests run: none is left mounted.
afterAll(() => {
  for (const dir of [mount, small, stateDisk, readOnlyDisk]) {
    if (!dir) continue;
    try {
      execFileSync('umount', [dir], { stdio: 'ignore' });
    } catch {
      // unmounted by its test already
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

describe.skipIf(!small)('snapshot save --file onto a full disk', () => {
  it('is STORAGE_FULL (exit 1), and leaves no partial file', async () => {
    const cli = createCli();
    try {
      expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
      fill(join(small!, 'filler'));
      const target = join(small!, 'base.db');
      const run = await cli.run(['sandbox', 'snapshot', 'save', '--file', target]);
      expect([run.exitCode, run.stdout, run.stderr]).toEqual([
        1,
        '',
        `Error [STORAGE_FULL]: --file ${target}: the disk is full: nothing was written; free some space and retry\n`,
      ]);
      expect(readdirSync(small!)).toEqual(['filler']);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  }, 60_000);
});

describe.skipIf(!stateDisk)('sandbox start with its state directory on a full disk', () => {
  it('is STORAGE_FULL (exit 1): the server stops and leaves no temporary file', async () => {
    // A server left serving with no state file would hold its database where no `sandbox stop` finds it.
    const home = join(stateDisk!, 'home');
    mkdirSync(home);
    const cli = createCli({ LEDGER_HOME: home });
    const db = join(cli.dir, 'sandbox.db');
    try {
      fill(join(stateDisk!, 'filler'));
      const run = await cli.run(['sandbox', 'start', '--db', db, '--port', '0']);
      expect([run.exitCode, run.stderr]).toEqual([
        1,
        `Error [STORAGE_FULL]: ${join(home, 'sandbox.json')}: the disk is full: ` +
          `the sandbox could not record where it runs, so it stopped; free some space and start it again\n`,
      ]);
      expect(readdirSync(home).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      // Nothing holds the database: with space back, the next start serves it.
      rmSync(join(stateDisk!, 'filler'));
      const again = await cli.run(['sandbox', 'start', '--detach', '--db', db, '--port', '0']);
      expect(again.exitCode, again.stderr).toBe(0);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  }, 120_000);
});

describe.skipIf(!readOnlyDisk)('sandbox start on a read-only file system', () => {
  it('is STORAGE_UNAVAILABLE naming the file (exit 1)', async () => {
    const cli = createCli();
    const db = join(readOnlyDisk!, 'sandbox.db');
    try {
      expect((await cli.run(['sandbox', 'start', '--detach', '--db', db, '--port', '0'])).exitCode).toBe(0);
      expect((await cli.run(['sandbox', 'stop'])).exitCode).toBe(0);
      execFileSync('mount', ['-o', 'remount,ro', readOnlyDisk!]);
      const existing = await cli.run(['sandbox', 'start', '--db', db, '--port', '0']);
      expect([existing.exitCode, existing.stderr]).toEqual([
        1,
        `Error [STORAGE_UNAVAILABLE]: ${db}-lock.json: the file system is read-only: ` +
          `the sandbox cannot serve ${db}, which it must write; use --db on a writable disk, or --memory\n`,
      ]);
      const fresh = join(readOnlyDisk!, 'fresh.db');
      const created = await cli.run(['sandbox', 'start', '--db', fresh, '--port', '0']);
      expect([created.exitCode, created.stderr]).toEqual([
        1,
        `Error [STORAGE_UNAVAILABLE]: ${fresh}: it cannot be opened for writing (unable to open database file): ` +
          `the sandbox cannot serve ${fresh}, which it must write; use --db on a writable disk, or --memory\n`,
      ]);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  }, 60_000);
});

// /dev/full answers every write with ENOSPC, as a log file on a full disk does: no mount needed.
describe.skipIf(!existsSync('/dev/full'))('a log that cannot be written', () => {
  it('a sandbox whose log is on a full disk drops the line it cannot write and serves on, detached or started `> log`', async () => {
    const cli = createCli();
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--memory', '--port', '0'], {
      cwd: cli.dir,
      env: cleanEnv(),
      stdio: ['ignore', full, full],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    closeSync(full);
    try {
      // The state file is the only way to find it: its banner went nowhere.
      const stateFile = join(cli.dir, '.ledger', 'sandbox.json');
      let state: { base_url: string; api_key: string; pid?: number } | undefined;
      for (let i = 0; i < 600 && child.exitCode === null; i++) {
        const read = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : undefined;
        if (
          read?.pid === child.pid &&
          (await fetch(`${read.base_url}/sandbox/health`).then(
            (r) => r.ok,
            () => false,
          ))
        )
          state = read;
        if (state) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(child.exitCode, 'the sandbox exited').toBeNull();
      const call = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(`${state!.base_url}${path}`, {
          method,
          headers: { 'x-api-key': state!.api_key, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: r.status, body: (await r.json()) as any };
      };
      // Each request's log line fails too, and an error's line (an unknown route's 404 is logged).
      const wallet = await call('POST', '/v1/wallets', {
        customer_reference: 'log',
        first_name: 'Ada',
        last_name: 'Obi',
        email: 'ada@example.com',
      });
      expect(wallet.status).toBe(201);
      const credit = await call('POST', '/sandbox/inbound-transfers', {
        account_number: wallet.body.data.account_number,
        amount: 5_000,
        narration: 'salary',
      });
      expect([credit.status, credit.body.data.outcome]).toEqual([200, 'CREDITED']);
      expect((await call('GET', '/v1/nowhere')).status).toBe(404);
      expect((await call('GET', `/v1/wallets/${wallet.body.data.id}`)).body.data.balance).toBe(5_000);
      expect((await call('GET', '/sandbox/audit')).body.data.ok).toBe(true);
      expect(child.exitCode).toBeNull();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      cli.cleanup();
    }
  }, 60_000);
});
