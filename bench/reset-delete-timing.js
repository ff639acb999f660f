// Times the reset's transactions step in isolation (docs/benchmarks.md, "What it took": the reset's
// stall): on copies of a built sandbox file (bench/scale.js `build`), chunks of ROWS transactions
// removed as the reset's worker thread removes them (foreign keys off, its cache, a checkpoint
// after the commit that takes the WAL past 4,096 pages), each in one transaction. Variants: in seq
// order, found as the reset found them before (`seq order`); the same without each index of
// `transactions` in turn, and without all three; account by account, as the reset walks them now
// (`account order`); in seq order with no checkpoint in a chunk. For each: chunk times (median,
// p90, max), rows per ms, CPU per row, and WAL pages written per row (counted in a first pass of
// CHUNKS chunks with no checkpoint, before the timed pass). VARIANTS=name,name picks some; PARTS=1
// prints each chunk's find / delete / commit times. A 200,000-transaction file, as the scale bench
// makes it (after `npm run build`): node --input-type=module -e "import { build } from
// './bench/scale.js'; await build('/tmp', 'base200k', 200000)" (about 3 minutes).
// Usage: node bench/reset-delete-timing.js FILE.db [ROWS=250] [CHUNKS=60]
import SQLite from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [source, rowsArg = '250', chunksArg = '60'] = process.argv.slice(2);
const ROWS = Number(rowsArg);
const CHUNKS = Number(chunksArg);
const dir = mkdtempSync(join(tmpdir(), 'reset-timing-'));

function copy(name) {
  const path = join(dir, `${name}.db`);
  copyFileSync(source, path);
  for (const suffix of ['-wal', '-shm'])
    if (existsSync(`${source}${suffix}`)) copyFileSync(`${source}${suffix}`, `${path}${suffix}`);
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('wal_autocheckpoint = 4096');
  db.pragma('cache_size = -32768');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return db;
}

let parts = [];
/** Where the last chunk of the variant stopped (bySeq's walk goes on from it). */
let after = 0;
const stats = (times) => {
  const s = [...times].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5).toFixed(1), p90: at(0.9).toFixed(1), max: s[s.length - 1].toFixed(1) };
};

/** Chunks of ROWS rows, each found by `pick` and removed in one transaction; the time of each. */
function chunks(db, pick, remove) {
  const times = [];
  parts = [];
  for (let i = 0; i < CHUNKS; i++) {
    const started = performance.now();
    db.exec('BEGIN IMMEDIATE');
    const keys = pick(after);
    if (keys.length === 0) {
      db.exec('COMMIT');
      break;
    }
    const found = performance.now();
    remove(keys);
    const removed = performance.now();
    db.exec('COMMIT');
    times.push(performance.now() - started);
    parts.push([found - started, removed - found, performance.now() - removed].map((t) => t.toFixed(1)).join('/'));
    after = keys[keys.length - 1];
  }
  return times;
}

function bySeq(db) {
  const developer = db.prepare(`SELECT developer_id FROM accounts WHERE kind = 'WALLET' LIMIT 1`).pluck().get();
  const find = db
    .prepare(
      `SELECT seq FROM transactions WHERE seq > ? AND seq <= ? + 20000
    AND account_seq IN (SELECT seq FROM accounts WHERE developer_id = ?) ORDER BY seq LIMIT ${ROWS}`,
    )
    .pluck();
  return {
    pick: (after) => find.all(after, after, developer),
    remove: (seqs) => db.prepare(`DELETE FROM transactions WHERE seq IN (${seqs.join(',')})`).run(),
    plan: () =>
      [
        ...db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT seq FROM transactions WHERE seq > 0 AND seq <= 20000
        AND account_seq IN (SELECT seq FROM accounts WHERE developer_id = ?) ORDER BY seq LIMIT ${ROWS}`,
          )
          .all(developer),
        ...db.prepare('EXPLAIN QUERY PLAN DELETE FROM transactions WHERE seq IN (1,2,3)').all(),
      ].map((r) => r.detail),
  };
}

/** The same rows, walked account by account, each account's in seq order (its rows lie together in the account's indexes). */
function byAccount(db) {
  const developer = db.prepare(`SELECT developer_id FROM accounts WHERE kind = 'WALLET' LIMIT 1`).pluck().get();
  const nextAccount = db
    .prepare('SELECT seq FROM accounts WHERE developer_id = ? AND seq > ? ORDER BY seq LIMIT 1')
    .pluck();
  const find = db
    .prepare('SELECT seq FROM transactions WHERE account_seq = ? AND seq > ? ORDER BY seq LIMIT ?')
    .pluck();
  let account = 0;
  let from = 0;
  return {
    pick: () => {
      const seqs = [];
      while (seqs.length < ROWS) {
        if (account === 0 || from === -1) {
          account = nextAccount.get(developer, account) ?? 0;
          from = 0;
          if (account === 0) break;
        }
        const wanted = ROWS - seqs.length;
        const found = find.all(account, from, wanted);
        seqs.push(...found);
        from = found.length < wanted ? -1 : found[found.length - 1];
      }
      return seqs;
    },
    remove: (seqs) => db.prepare(`DELETE FROM transactions WHERE seq IN (${seqs.join(',')})`).run(),
    plan: () =>
      db
        .prepare(
          'EXPLAIN QUERY PLAN SELECT seq FROM transactions WHERE account_seq = 1 AND seq > 0 ORDER BY seq LIMIT 250',
        )
        .all()
        .map((r) => r.detail),
  };
}

const indexes = (db) =>
  db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL`,
    )
    .all();

function variant(name, prepare, walk = bySeq) {
  const db = copy(name);
  after = 0;
  prepare?.(db);
  const { pick, remove, plan } = walk(db);
  // Pages written, counted as the WAL's growth: no checkpoint (and no WAL restart) while they are counted.
  const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true });
  db.pragma('wal_autocheckpoint = 0');
  const walBefore = statSync(`${db.name}-wal`).size;
  const counted = chunks(db, pick, remove);
  const pagesPerRow = (statSync(`${db.name}-wal`).size - walBefore) / (4096 + 24) / (counted.length * ROWS);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  const cpuBefore = process.cpuUsage();
  const times = chunks(db, pick, remove);
  const cpu = process.cpuUsage(cpuBefore);
  const total = times.reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      variant: name,
      chunks: times.length,
      rows: ROWS,
      ...stats(times),
      rowsPerMs: ((times.length * ROWS) / total).toFixed(1),
      walPagesPerRow: pagesPerRow.toFixed(2),
      cpuUsPerRow: ((cpu.user + cpu.system) / (times.length * ROWS)).toFixed(1),
    }),
  );
  if (process.env.PARTS) console.log('  find/delete/commit ms:', parts.join(' '));
  if (name === 'seq order' || name === 'account order') console.log('  plan:', plan().join(' | '));
  if (name === 'seq order') {
    console.log(
      '  indexes:',
      indexes(db)
        .map((i) => i.sql)
        .join('; '),
    );
    for (const table of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()) {
      for (const fk of db.prepare(`PRAGMA foreign_key_list(${table})`).all()) {
        if (fk.table === 'transactions' || table === 'transactions')
          console.log(`  fk: ${table}.${fk.from} -> ${fk.table}.${fk.to} on delete ${fk.on_delete}`);
      }
    }
    console.log(
      '  triggers:',
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).pluck().all().join(', ') || 'none',
    );
    console.log(
      '  page_size',
      db.pragma('page_size', { simple: true }),
      'auto_vacuum',
      db.pragma('auto_vacuum', { simple: true }),
    );
  }
  db.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `${name}.db${suffix}`), { force: true });
}

try {
  const only = process.env.VARIANTS?.split(',');
  const want = (name) => !only || only.includes(name);
  if (want('seq order')) variant('seq order');
  const probe = new SQLite(source, { readonly: true });
  const names = indexes(probe).map((i) => i.name);
  probe.close();
  for (const index of names)
    if (want(`seq order without ${index}`))
      variant(`seq order without ${index}`, (db) => db.exec(`DROP INDEX ${index}`));
  if (want('account order')) variant('account order', undefined, byAccount);
  if (want('seq order with no checkpoint in a chunk'))
    variant('seq order with no checkpoint in a chunk', (db) => db.pragma('wal_autocheckpoint = 0'));
  if (want('seq order without the three indexes'))
    variant('seq order without the three indexes', (db) => names.forEach((index) => db.exec(`DROP INDEX ${index}`)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
