import { copyFileSync, readFileSync, renameSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/engine/processes.js';
import { type Cli, createCli } from '../helpers/cli.js';

/** One database, one server; a database file lost under a server stops it (decisions: Storage). */

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startDetached(cli: Cli, args: string[], env: Record<string, string> = {}) {
  const r = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--json', ...args], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { base_url: string; api_key: string; pid: number; db: string; log_file: string };
}

/** Waits for a process to end (bounded): the server stops itself on a timer of its own. */
async function exited(pid: number) {
  for (let i = 0; i < 200 && isAlive(pid); i++) await sleep(50);
  return !isAlive(pid);
}

const credit = (base: string, key: string, account: string) =>
  fetch(`${base}/sandbox/inbound-transfers`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ account_number: account, amount: 100 }),
  })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
    .catch((error: Error) => ({ status: 0, body: { error: error.message } as any }));

describe('one database, one server', () => {
  it('refuses a second start on a database another process serves, with the pid and port', async () => {
    // A second server would rotate the first one's key, and its requests would fail with 500.
    const first = createCli();
    const second = createCli();
    try {
      const db = join(first.dir, 'shared.db');
      const running = await startDetached(first, ['--db', db]);
      for (const args of [
        ['sandbox', 'start', '--db', db, '--port', '0'],
        ['sandbox', 'start', '--detach', '--db', db, '--port', '0'],
      ]) {
        const refused = await second.run(args);
        expect(refused.exitCode).toBe(1);
        expect(refused.stderr).toContain(
          `Error [DATABASE_IN_USE]: ${db} is served by another sandbox (pid ${running.pid}, ${running.base_url})`,
        );
      }
      // The first server's key still works: nothing was rotated, nothing was written.
      expect((await first.run(['wallets', 'list', '--json'])).exitCode).toBe(0);
      expect((await first.run(['sandbox', 'stop'])).exitCode).toBe(0);
      // The lock died with its process: now the second may serve the file.
      const took = await startDetached(second, ['--db', db]);
      expect(took.pid).not.toBe(running.pid);
    } finally {
      await first.run(['sandbox', 'stop']);
      await second.run(['sandbox', 'stop']);
      first.cleanup();
      second.cleanup();
    }
  });

  for (const [what, lose] of [
    ['truncated', (db: string) => truncateSync(db, 0)],
    [
      'replaced by another file',
      (db: string) => {
        copyFileSync(db, `${db}.copy`);
        renameSync(`${db}.copy`, db);
      },
    ],
    ['removed', (db: string) => unlinkSync(db)],
  ] as const) {
    it(`a database file ${what} under a running server stops it instead of acknowledging writes that would be lost`, async () => {
      const cli = createCli();
      try {
        const server = await startDetached(cli, []);
        const wallet = JSON.parse(
          (
            await cli.run([
              'wallets',
              'create',
              '--customer-reference',
              'a',
              '--first-name',
              'A',
              '--last-name',
              'B',
              '--email',
              'a@b.ng',
              '--json',
            ])
          ).stdout,
        );
        expect((await credit(server.base_url, server.api_key, wallet.account_number)).status).toBe(200);
        lose(server.db);
        const after = await credit(server.base_url, server.api_key, wallet.account_number);
        expect(after.status).not.toBe(200);
        if (after.status !== 0) expect(after.body.detail.code).toBe('STORAGE_UNAVAILABLE');
        expect(await exited(server.pid)).toBe(true);
        expect(readFileSync(server.log_file, 'utf8')).toMatch(
          new RegExp(`Error \\[STORAGE_UNAVAILABLE\\]: the database file .*sandbox\\.db was ${what.split(' ')[0]}`),
        );
      } finally {
        await cli.run(['sandbox', 'stop']);
        cli.cleanup();
      }
    });
  }
});

describe('secrets at rest', () => {
  it('.ledger is 0700, its files 0600, and the detached log never holds the key', async () => {
    const cli = createCli();
    try {
      const server = await startDetached(cli, []);
      const dir = join(cli.dir, '.ledger');
      expect(mode(dir)).toBe('700');
      for (const file of [
        'sandbox.json',
        'sandbox.log',
        'sandbox.db',
        'sandbox.db-wal',
        'sandbox.db-shm',
        'sandbox.db-lock',
        'sandbox.db-lock.json',
      ]) {
        expect([file, mode(join(dir, file))]).toEqual([file, '600']);
      }
      await cli.run(['sandbox', 'keys', 'rotate']);
      await cli.run(['sandbox', 'stop']);
      const log = readFileSync(join(dir, 'sandbox.log'), 'utf8');
      expect(log).toContain('listening on');
      expect(log).not.toMatch(/svc_test_[0-9A-Za-z]{32}/);
      expect(log).not.toContain(server.api_key);
      expect(log).not.toMatch(/whsec_/);
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });
});

describe('stop and status agree', () => {
  for (const args of [[], ['--memory']]) {
    it(`a running server whose state file was deleted is still found by its lock, reported and stopped (${args.join(' ') || 'file'})`, async () => {
      const cli = createCli();
      try {
        const server = await startDetached(cli, args);
        unlinkSync(join(cli.dir, '.ledger', 'sandbox.json'));
        const status = await cli.run(['sandbox', 'status', '--json']);
        expect(status.exitCode).toBe(0);
        expect(JSON.parse(status.stdout)).toMatchObject({ running: true, base_url: server.base_url, pid: server.pid });
        const stop = await cli.run(['sandbox', 'stop', '--json']);
        expect(JSON.parse(stop.stdout)).toEqual({ stopped: true, pid: server.pid });
        expect(isAlive(server.pid)).toBe(false);
        // Asked at its own address (with nothing found here, status would ask the default port 4010,
        // where another sandbox on the machine may well answer).
        const after = await cli.run(['sandbox', 'status', '--json'], { env: { LEDGER_BASE_URL: server.base_url } });
        expect(after.exitCode).toBe(3);
        expect(JSON.parse(after.stdout)).toMatchObject({ running: false, base_url: server.base_url, pid: null });
        expect(JSON.parse((await cli.run(['sandbox', 'stop', '--json'])).stdout)).toEqual({
          stopped: false,
          pid: null,
        });
      } finally {
        await cli.run(['sandbox', 'stop']);
        cli.cleanup();
      }
    });
  }

  it("after a job's sandbox was killed, `sandbox stop` there stops nothing, whatever process has its pid since", async () => {
    // The pid may be another job's sandbox by then.
    const killed = createCli();
    const other = createCli();
    try {
      const gone = await startDetached(killed, ['--seed', '1']);
      process.kill(gone.pid, 'SIGKILL');
      expect(await exited(gone.pid)).toBe(true);
      const running = await startDetached(other, ['--seed', '1']);
      // The pid comes round again: the killed sandbox's state file and owner file both name it.
      for (const file of ['sandbox.json', 'sandbox.db-lock.json']) {
        const path = join(killed.dir, '.ledger', file);
        writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), pid: running.pid }));
      }
      const stop = await killed.run(['sandbox', 'stop', '--json']);
      expect([stop.exitCode, JSON.parse(stop.stdout)]).toEqual([0, { stopped: false, pid: null }]);
      expect(isAlive(running.pid)).toBe(true);
      const status = await other.run(['sandbox', 'status', '--json']);
      expect([status.exitCode, JSON.parse(status.stdout)]).toEqual([
        0,
        expect.objectContaining({ running: true, pid: running.pid }),
      ]);
    } finally {
      await other.run(['sandbox', 'stop']);
      killed.cleanup();
      other.cleanup();
    }
  });

  it('a stale owner file naming a live but unrelated process is not stopped', async () => {
    const cli = createCli();
    try {
      writeFileSync(join(cli.dir, 'placeholder'), '');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(cli.dir, '.ledger'), { recursive: true });
      writeFileSync(join(cli.dir, '.ledger', 'sandbox.db-lock'), '');
      writeFileSync(
        join(cli.dir, '.ledger', 'sandbox.db-lock.json'),
        JSON.stringify({ pid: process.pid, base_url: null, db: 'x', started_at: '' }),
      );
      const stop = await cli.run(['sandbox', 'stop', '--json']);
      expect(JSON.parse(stop.stdout)).toEqual({ stopped: false, pid: null });
      expect(isAlive(process.pid)).toBe(true);
    } finally {
      cli.cleanup();
    }
  });
});
