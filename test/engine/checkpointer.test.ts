import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/engine/db/database.js';
import { startCheckpointer } from '../../src/engine/db/sqlite/checkpointer.js';
import { writesOffThread } from '../../src/engine/db/sqlite/off-thread.js';
import {
  closeDatabase,
  openDatabase,
  reclaimSpaceOffThread,
  truncateWal,
  walCaughtUp,
} from '../../src/engine/db/sqlite/open.js';
import { putSetting } from '../../src/engine/settings/settings.repository.js';

/**
 * The background checkpointer's thread also serves a reset (sandbox/reset.ts): it gives free pages
 * back to the file system, and tells whether the WAL is copied into the database file, so that a
 * reset waits for it instead of letting the WAL grow.
 */
let dir: string;
let path: string;
let db: Db;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-checkpointer-'));
  path = join(dir, 'ledger.db');
  db = await openDatabase({ path, backgroundCheckpoints: true });
  await sql`CREATE TABLE scratch (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
});
afterEach(async () => {
  await closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const pragma = async (name: string) =>
  Number(Object.values((await sql.raw(`PRAGMA ${name}`).execute(db)).rows[0] as object)[0]);

async function fillAndEmpty(rows: number) {
  await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO scratch (body) SELECT printf('%.500c', 'x') FROM n`.execute(db);
  await sql`DELETE FROM scratch`.execute(db);
}

/** Waits until the thread's answer holds (its rounds are 20 ms apart, up to 500 ms when idle). */
const until = (check: () => Promise<boolean>) => vi.waitUntil(check, { timeout: 5_000, interval: 10 });

describe('the checkpointer thread', () => {
  it('gives free pages back to the file system, a step of a few ms at a time, until none are left', async () => {
    await fillAndEmpty(10_000);
    const before = await pragma('page_count');
    expect(await pragma('freelist_count')).toBeGreaterThan(1_000);
    let steps = 0;
    let left = Infinity;
    while (left > 0 && steps < 1_000) {
      left = (await reclaimSpaceOffThread(db, 1))!;
      steps++;
    }
    expect(left).toBe(0);
    // A step of about 1 ms moves a few hundred pages at most: more than one step was needed.
    expect(steps).toBeGreaterThan(1);
    expect(await pragma('freelist_count')).toBe(0);
    expect(await pragma('page_count')).toBeLessThan(before / 4);
  });

  it('has the writer checkpoint itself only as a backstop: past 16,384 WAL pages, in the commit that crosses it', async () => {
    expect(await pragma('wal_autocheckpoint')).toBe(16_384);
  });

  it("leaves a long WAL file for the reset's worker to cut back when it starts the WAL over, not the request thread's next write", async () => {
    const reader = new SQLite(path, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM scratch').get();
    // 17,000 pages held in the WAL by the reader: a file of about 70 MB, over the 64 MiB limit.
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 17000)
      INSERT INTO scratch (body) SELECT printf('%.3000c', 'x') FROM n`.execute(db);
    reader.exec('COMMIT');
    reader.close();
    const limit = 64 * 1024 * 1024;
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(limit);
    await until(() => walCaughtUp(db, 1));
    // The worker's write is the first after the checkpointer copied it all: it starts the WAL over, and cuts the file back.
    const writer = writesOffThread(db);
    try {
      await writer.run(
        { module: 'engine/settings/settings.repository', name: 'putSetting', run: putSetting },
        'after',
        'worker',
      );
    } finally {
      await writer.close();
    }
    expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(limit);
  });

  it('tells the WAL is copied once no reader holds it back, and not while one does', async () => {
    const reader = new SQLite(path, { readonly: true });
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM scratch').get();
      await fillAndEmpty(2_000);
      // The reader's snapshot keeps the new pages in the WAL.
      expect(await walCaughtUp(db, 1)).toBe(false);
      // A short WAL is short enough when that is all that is asked.
      expect(await walCaughtUp(db, 1_000_000)).toBe(true);
      reader.exec('COMMIT');
      await until(() => walCaughtUp(db, 1));
    } finally {
      reader.close();
    }
  });

  it('asked whether all of the WAL is copied, looks again: a round from before the last commit does not answer', async () => {
    // The background round runs every 20 ms; a commit just after one it found all copied is not in that answer.
    for (let round = 0; round < 5; round++) {
      await until(() => walCaughtUp(db, 1));
      const reader = new SQLite(path, { readonly: true });
      try {
        reader.exec('BEGIN');
        reader.prepare('SELECT count(*) FROM scratch').get();
        // One short commit, held in the WAL by the reader's snapshot.
        await sql`INSERT INTO scratch (body) VALUES (${`round ${round}`})`.execute(db);
        expect(await walCaughtUp(db, 1)).toBe(false);
      } finally {
        reader.exec('COMMIT');
        reader.close();
      }
    }
  });
});

describe('a database with no checkpointer thread', () => {
  // A reset tries to cut the WAL back for up to 5 s: with nothing to ask, each reset waited all of it
  // (every reset of an in-memory sandbox, and of one whose checkpointer thread had failed).
  it.each([':memory:', 'file'])(
    'has no WAL to wait for (%s): asked to cut it back or whether it is copied, it answers yes at once',
    async (kind) => {
      const other = await openDatabase({ path: kind === 'file' ? join(dir, 'plain.db') : ':memory:' });
      try {
        await putSetting(other, 'probe', '1');
        expect(await truncateWal(other)).toBe(true);
        expect(await walCaughtUp(other, 1)).toBe(true);
      } finally {
        await closeDatabase(other);
      }
    },
  );
});

describe('the checkpointer thread of an idle sandbox', () => {
  it('checkpoints again only once something was committed: left running with nothing written, it does next to nothing', async () => {
    const file = join(dir, 'idle.db');
    const writer = await openDatabase({ path: file });
    const checkpointer = startCheckpointer(file);
    try {
      await putSetting(writer, 'probe', '1');
      await until(async () => (await checkpointer.catchUp(1)) === 0);
      const before = await checkpointer.rounds();
      // A negative check with no event to wait for: the thread counts only the rounds that checkpoint,
      // and one that finds nothing new leaves no trace. 300 ms holds up to 15 of its rounds; a slower
      // machine runs fewer of them, which can only make the count smaller, so the bound never flakes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const idle = await checkpointer.rounds();
      expect(idle - before).toBeLessThanOrEqual(1);
      await putSetting(writer, 'probe', '2');
      await until(async () => (await checkpointer.rounds()) > idle);
      await until(async () => (await checkpointer.catchUp(1)) === 0);
    } finally {
      await checkpointer.stop();
      await closeDatabase(writer);
    }
  });
});
