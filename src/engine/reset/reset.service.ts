import { type RawBuilder, sql } from 'kysely';
import type { Database, Trx } from '../db/database.js';
import { answersOf, type IdempotentOperation } from '../idempotency/idempotency.service.js';

type Table = keyof Database & string;

/** Events and delivery logs name their developer by its number (migration 0020, events/stored.ts). */
const byDeveloperSeq = (developerId: string) =>
  sql`developer_seq = (SELECT seq FROM developers WHERE id = ${developerId})`;
/** The developer's wallet accounts (its system accounts stay, zeroed). */
const walletAccounts = (developerId: string) => sql`developer_id = ${developerId} AND kind = 'WALLET'`;

/**
 * What `reset` empties for one developer, children before parents. A table with `seq` is walked in
 * seq order; one without is reached through its key, which starts with the developer's id. Rows of
 * `children` (tied by a column to the table's `id`, or to its `seq` where the
 * parent has no id, with no developer id of their own) go with their parents' chunk. Bookkeeping tables are not reported.
 * `owner` says which rows are the developer's where the table has no developer_id column.
 * `through` walks the table instead through the developer's rows of another table, one by one in
 * seq order, and for each the rows that point at it (by `column`) in seq order: where every index
 * of the table but the key starts with that column, the rows a chunk removes lie together in them.
 */
const RESET_ORDER: {
  table: Table;
  key?: string[];
  children?: { table: Table; column: string; parent?: 'seq' }[];
  bookkeeping?: true;
  owner?: (developerId: string) => RawBuilder<unknown>;
  through?: { table: Table; column: string };
  /** Rows of the developer's that stay (a table walked by `key`), given the operations whose stored answers stay. */
  keep?: (keptAnswers: readonly IdempotentOperation[]) => RawBuilder<unknown>;
}[] = [
  { table: 'agent_runs' },
  { table: 'agents' },
  {
    table: 'webhook_logs',
    owner: byDeveloperSeq,
    children: [{ table: 'webhook_attempts', column: 'log_seq', parent: 'seq' }],
  },
  { table: 'receiver_events' },
  { table: 'payouts', key: ['transaction_id'] },
  { table: 'events', owner: byDeveloperSeq },
  { table: 'idempotency_keys', key: ['developer_id', 'method', 'path', 'key'], keep: answersOf },
  { table: 'inbound_transfers', key: ['developer_id', 'provider_reference'] },
  { table: 'suspense_items', children: [{ table: 'suspense_notes', column: 'suspense_seq', parent: 'seq' }] },
  // A transaction's developer is its wallet account's (migration 0019a); accounts go last (finishReset).
  // Account by account: its three indexes start with account_seq, so a chunk's rows lie together in
  // them. In seq order they lay one or two to a page there, and a chunk that found them through
  // every account's index and sorted them spent a third of its time finding (docs/benchmarks.md).
  { table: 'transactions', through: { table: 'accounts', column: 'account_seq' } },
  { table: 'postings', children: [{ table: 'entries', column: 'posting_seq', parent: 'seq' }] },
  { table: 'wallets', children: [{ table: 'transaction_counts', column: 'wallet_id' }] },
  // In chunks, as the rest: in the last write (finishReset, on the request thread) it was one scan of
  // `accounts` (no index leads with developer_id for wallets) and a delete per wallet.
  { table: 'accounts', owner: walletAccounts, bookkeeping: true },
  { table: 'webhook_log_counts', key: ['developer_id', 'status', 'event_type'], bookkeeping: true },
  { table: 'receiver_event_counts', key: ['developer_id'], bookkeeping: true },
];

/** Rows of other developers a chunk may look past, at most, in a table walked in seq order. */
const SCAN = 20_000;

/** Where a reset stands: the table it is in, the last seq it covered there, and what it removed. */
export interface ResetProgress {
  step: number;
  after: number;
  /** The last seq of the current table when the reset reached it (the developer adds none meanwhile: the sandbox holds it). */
  end?: number;
  /** In a table walked `through` another: the seq of the row of the other whose rows it is removing (0: none yet). */
  parent?: number;
  removed: Record<string, number>;
}

const markOf = (developerId: string) => `reset_pending:${developerId}`;

/**
 * The first step of a reset, in one transaction: marks it (a sandbox that stops before the last
 * step finishes it when it starts again) and zeroes every account of the developer, so the
 * sandbox's books balance while the developer's rows are removed, chunk by chunk. A scan of
 * `accounts`: run it as a job off the request thread (sandbox/reset.ts), as the chunks are.
 * @example const progress = await beginReset(trx, developerId); while (await resetChunk(trx, developerId, progress, 2000, []));
 */
export async function beginReset(trx: Trx, developerId: string): Promise<ResetProgress> {
  await trx
    .insertInto('settings')
    .values({ key: markOf(developerId), value: '1' })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  await trx.updateTable('accounts').set({ balance: 0 }).where('developer_id', '=', developerId).execute();
  return newResetProgress();
}

export function newResetProgress(): ResetProgress {
  return { step: 0, after: 0, removed: {} };
}

const count = (progress: ResetProgress, table: string, n: number | bigint | undefined) => {
  progress.removed[table] = (progress.removed[table] ?? 0) + Number(n ?? 0);
};

/**
 * Removes the next chunk of the developer's rows: at most `rows` of them, with their children,
 * looking past at most SCAN rows of other developers, so a chunk's cost has a bound however large
 * the tables are. Resolves false once every table is done; answers how many rows it removed in
 * `progress.last`. Run it with foreign keys off (children go first, so nothing is left pointing
 * at a removed row) and nothing else of the developer's running: the sandbox holds it meanwhile.
 * `keptAnswers`: the operations whose effects a reset keeps (the developer's clock, its signing
 * secret); their stored Idempotency-Key answers stay too, or a retry after the reset would run
 * the operation a second time.
 */
export async function resetChunk(
  trx: Trx,
  developerId: string,
  progress: ResetProgress,
  rows: number,
  keptAnswers: readonly IdempotentOperation[],
): Promise<boolean> {
  const entry = RESET_ORDER[progress.step];
  if (!entry) return false;
  const table = sql.table(entry.table);
  let done: boolean;
  if (entry.through) {
    done = await throughChunk(trx, developerId, progress, rows, entry.table, entry.through);
  } else if (entry.key) {
    const key = sql.join(entry.key.map((column) => sql.ref(column)));
    const keep = entry.keep ? sql` AND NOT (${entry.keep(keptAnswers)})` : sql``;
    const result =
      await sql`DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE developer_id = ${developerId}${keep} LIMIT ${rows})`.execute(
        trx,
      );
    if (!entry.bookkeeping) count(progress, entry.table, result.numAffectedRows);
    done = Number(result.numAffectedRows ?? 0) < rows;
  } else {
    progress.end ??=
      (await sql<{ last: number | null }>`SELECT max(seq) AS last FROM ${table}`.execute(trx)).rows[0]?.last ?? 0;
    const upTo = Math.min(progress.after + SCAN, progress.end);
    const byId = entry.children?.some((child) => child.parent === undefined) ?? false;
    const owner = entry.owner?.(developerId) ?? sql`developer_id = ${developerId}`;
    const found = await sql<{ seq: number; id: string }>`SELECT seq${byId ? sql`, id` : sql``} FROM ${table}
      WHERE seq > ${progress.after} AND seq <= ${upTo} AND ${owner} ORDER BY seq LIMIT ${rows}`.execute(trx);
    const seqs = found.rows.map((r) => r.seq);
    if (seqs.length > 0) {
      for (const child of entry.children ?? []) {
        const parents = sql.join(child.parent === 'seq' ? seqs : found.rows.map((r) => r.id));
        const result =
          await sql`DELETE FROM ${sql.table(child.table)} WHERE ${sql.ref(child.column)} IN (${parents})`.execute(trx);
        count(progress, child.table, result.numAffectedRows);
      }
      const result = await sql`DELETE FROM ${table} WHERE seq IN (${sql.join(seqs)})`.execute(trx);
      if (!entry.bookkeeping) count(progress, entry.table, result.numAffectedRows);
    }
    progress.after = seqs.length === rows ? seqs[seqs.length - 1]! : upTo;
    done = progress.after >= progress.end;
  }
  if (done) {
    progress.step += 1;
    progress.after = 0;
    delete progress.end;
    delete progress.parent;
  }
  return progress.step < RESET_ORDER.length;
}

/**
 * A chunk of a table walked `through` the developer's rows of another: from where the last chunk
 * stopped, the rows that point at each of them in turn (at most `rows` of them, looked up in one
 * read of the other table), until `rows` are found, then removed in one statement. True once the
 * last of them is done.
 */
async function throughChunk(
  trx: Trx,
  developerId: string,
  progress: ResetProgress,
  rows: number,
  name: Table,
  through: { table: Table; column: string },
): Promise<boolean> {
  const table = sql.table(name);
  const column = sql.ref(through.column);
  // progress.after -1: the rows of progress.parent are all gone, the walk goes on from the next one.
  const from = (progress.parent ?? 0) + (progress.after === -1 ? 1 : 0);
  const parents = await sql<{
    seq: number;
  }>`SELECT seq FROM ${sql.table(through.table)} WHERE developer_id = ${developerId} AND seq >= ${from}
    ORDER BY seq LIMIT ${rows}`.execute(trx);
  const seqs: number[] = [];
  let done = parents.rows.length < rows;
  for (const { seq: parent } of parents.rows) {
    const wanted = rows - seqs.length;
    const after = parent === progress.parent && progress.after > 0 ? progress.after : 0;
    const found = await sql<{
      seq: number;
    }>`SELECT seq FROM ${table} WHERE ${column} = ${parent} AND seq > ${after} ORDER BY seq LIMIT ${wanted}`.execute(
      trx,
    );
    for (const row of found.rows) seqs.push(row.seq);
    progress.parent = parent;
    progress.after = found.rows.length < wanted ? -1 : seqs[seqs.length - 1]!;
    if (seqs.length === rows) {
      done = false;
      break;
    }
  }
  if (seqs.length > 0) {
    const result = await sql`DELETE FROM ${table} WHERE seq IN (${sql.join(seqs)})`.execute(trx);
    count(progress, name, result.numAffectedRows);
  }
  return done;
}

/**
 * `resetChunk` as a job for another thread (off-thread.ts `writesOffThread`): the progress it moved
 * goes back with the answer, since the thread worked on its own copy.
 */
export async function resetChunkJob(
  trx: Trx,
  developerId: string,
  progress: ResetProgress,
  rows: number,
  keptAnswers: readonly IdempotentOperation[],
): Promise<{ more: boolean; progress: ResetProgress }> {
  const more = await resetChunk(trx, developerId, progress, rows, keptAnswers);
  return { more, progress };
}

/**
 * The last step: the mark goes (the wallet accounts went in the last chunks), in the transaction
 * that stores the answer. One row by its key: the request thread runs it. Its account, keys,
 * endpoint, system accounts and clock stay.
 */
export async function finishReset(
  trx: Trx,
  developerId: string,
  progress: ResetProgress,
): Promise<Record<string, number>> {
  await trx.deleteFrom('settings').where('key', '=', markOf(developerId)).execute();
  return progress.removed;
}

/** True while a reset of the developer is under way. */
export async function resetPending(trx: Trx, developerId: string): Promise<boolean> {
  return (
    (await trx.selectFrom('settings').select('key').where('key', '=', markOf(developerId)).executeTakeFirst()) !==
    undefined
  );
}

/** Developers whose reset began and did not finish (the sandbox stopped in between). */
export async function unfinishedResets(trx: Trx): Promise<string[]> {
  const rows = await trx.selectFrom('settings').select('key').where('key', 'like', 'reset_pending:%').execute();
  return rows.map((r) => r.key.slice(markOf('').length));
}
