import { type CarriedRequestLog, putBackRequestLog, readRequestLog } from '../engine/requests/requests.repository.js';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Snapshot } from '../api/schemas/snapshots.js';
import {
  namedSnapshotFile,
  SNAPSHOT_FORMATS,
  SNAPSHOT_NAME,
  SNAPSHOT_NAME_RULE,
  type SnapshotFormat,
} from '../api/snapshot-name.js';
import { allKeys, type ApiKeyRow, carryKeys } from '../engine/developers/keys.js';
import { invalidField, LedgerError } from '../engine/errors.js';
import { storageFailure } from '../engine/db/storage-errors.js';
import { damagedSnapshot, snapshotInvalid, syncFile } from '../engine/db/snapshot-files.js';
import { audit, type AuditReport } from '../engine/audit/audit.service.js';
import { getSetting } from '../engine/settings/settings.repository.js';
import { SANDBOX_DEVELOPER, type Sandbox } from './sandbox.js';
import { isAlive } from '../engine/processes.js';
import type { Scheduler } from './scheduler.js';

/** A named snapshot (in the snapshot directory) or a file anywhere (a fixture in a repository), to restore from. */
export type SnapshotTarget = { name: string } | { file: string };

/** A consistent copy of the sandbox, opened for reading and already unlinked: nothing is left behind once `fd` is closed. */
export interface SnapshotCopy {
  fd: number;
  size_bytes: number;
  saved_at: string;
}

/**
 * Saving, restoring, listing and deleting snapshots of the whole sandbox (decisions: Snapshots). Named
 * snapshots are `<name>.db` (SQLite) or `<name>.jsonl` (text) files in one directory (mode 0700,
 * files 0600), one file a name. A restore tells the formats apart by the file's first bytes.
 */
export interface Snapshots {
  readonly dir: string;
  /**
   * Writes a consistent copy under `name` in the snapshot directory crash-safely: a temp file beside
   * it, fsync, rename, fsync of the directory. The server writes snapshots there and nowhere else: a
   * file of your choosing is written by whoever downloads the sandbox (`copy`, GET /sandbox/database).
   */
  save(name: string, savedAt: Date, format?: SnapshotFormat): Promise<Snapshot>;
  /** A consistent copy to send (`GET /sandbox/database`), made in the snapshot directory and unlinked once open. */
  copy(savedAt: Date, format?: SnapshotFormat): Promise<SnapshotCopy>;
  /**
   * Replaces the sandbox's whole state with the snapshot's, atomically between two write batches,
   * once the audit's invariants hold on the snapshot (SNAPSHOT_INVALID naming the first problems
   * when they do not). `force` skips that check, with a warning.
   */
  restore(target: SnapshotTarget, options?: { force?: boolean | undefined }): Promise<Snapshot>;
  list(): Snapshot[];
  remove(name: string): void;
}

let temporaries = 0;

/** The problems a refusal names; the rest are counted. */
const NAMED_PROBLEMS = 3;
const AUDIT = { module: 'engine/audit/audit.service', name: 'audit', run: audit };

/** A snapshot whose books do not balance, refused with its first problems named. */
function unbalanced(field: string, report: AuditReport): LedgerError {
  const named = report.problems.slice(0, NAMED_PROBLEMS).map((p) => p.message);
  const more = report.problems.length - named.length;
  const detail = `does not balance, so it was not loaded: ${named.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}. Its audit is skipped with --force`;
  return snapshotInvalid(field, 'does not balance', detail);
}

/** `warn` gets the line that says a restore skipped its check (the server's log). */
export function createSnapshots(
  sandbox: Sandbox,
  scheduler: Pick<Scheduler, 'quiesce'>,
  dir: string,
  warn: (line: string) => void = console.error,
): Snapshots {
  /** A name's file: in `format`, or (none given) the one there is. */
  const located = (target: SnapshotTarget, format?: SnapshotFormat) => {
    if ('name' in target) {
      if (!SNAPSHOT_NAME.test(target.name)) throw invalidField('name', SNAPSHOT_NAME_RULE);
      return {
        path: format ? join(dir, `${target.name}${SNAPSHOT_FORMATS[format]}`) : namedSnapshotFile(dir, target.name),
        name: target.name,
        file: null,
        field: 'name',
      };
    }
    const path = resolve(target.file);
    return { path, name: null, file: path, field: 'file' };
  };
  // Written to, the live database (or its WAL) would be replaced under the server; read from, its
  // main file lacks what the WAL holds. (A named one too, should --db point into the snapshot directory.)
  const notOwn = <T extends { path: string; field: string }>(at: T): T => {
    if (sandbox.dbPath !== ':memory:' && isOwnFile(at.path, sandbox.dbPath)) {
      throw invalidField(
        at.field,
        "is the sandbox's own database or one of its files: a snapshot is a file of its own",
      );
    }
    return at;
  };
  const hooks = sandbox.storage.snapshots;
  // Another live sandbox's data is not all in its file (SQLite: part of it is in the WAL).
  const notServed = <T extends { path: string; field: string }>(at: T): T => {
    if (hooks.isServed(at.path)) {
      throw invalidField(
        at.field,
        'is the database of another running sandbox: save a snapshot there (`ledger sandbox snapshot save`) and restore that',
      );
    }
    return at;
  };
  const describe = (at: ReturnType<typeof located>): Snapshot => {
    const { meta, format } = hooks.info(at.path, at.field);
    return {
      name: at.name,
      file: at.file,
      format,
      size_bytes: statSync(at.path).size,
      saved_at: meta?.saved_at ?? null,
    };
  };
  const existing = (target: SnapshotTarget) => {
    const at = located(target);
    if (!existsSync(at.path))
      throw 'name' in target
        ? new LedgerError('NOT_FOUND', `snapshot "${target.name}" not found in ${dir}`)
        : invalidField('file', `${at.path} does not exist`);
    return at;
  };

  /** A consistent copy of the sandbox in `format` in a temporary file beside `path` (one a killed process left there is removed first). */
  const copyBeside = async (path: string, field: string, savedAt: Date, format: SnapshotFormat): Promise<string> => {
    removeStaleTemporaries(path);
    const temporary = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${++temporaries}`);
    const meta = { saved_at: savedAt.toISOString() };
    try {
      await hooks.copy(temporary, meta, format);
      return temporary;
    } catch (error) {
      rmSync(temporary, { force: true });
      throw unwritable(error, field, path);
    }
  };

  return {
    dir,
    async save(name, savedAt, format = hooks.nativeFormat) {
      const at = notOwn(located({ name }, format));
      makePrivateDir(dir);
      const temporary = await copyBeside(at.path, at.field, savedAt, format);
      try {
        renameSync(temporary, at.path);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw unwritable(error, at.field, at.path);
      }
      // One file a name: the other format's goes, so a restore by name finds this one.
      for (const other of Object.keys(SNAPSHOT_FORMATS) as SnapshotFormat[])
        if (other !== format) rmSync(located({ name }, other).path, { force: true });
      syncFile(dirname(at.path));
      return describe(at);
    },
    async copy(savedAt, format = hooks.nativeFormat) {
      makePrivateDir(dir);
      const temporary = await copyBeside(join(dir, 'download'), 'database', savedAt, format);
      try {
        const fd = openSync(temporary, 'r');
        return { fd, size_bytes: statSync(temporary).size, saved_at: savedAt.toISOString() };
      } finally {
        rmSync(temporary, { force: true });
      }
    },
    async restore(target, { force = false } = {}) {
      const at = notServed(notOwn(existing(target)));
      const info = describe(at);
      const work = mkdtempSync(join(tmpdir(), 'ledger-restore-'));
      let prepared: { path: string; migrated: boolean } | undefined;
      try {
        const ready = await hooks.prepare(at.path, join(work, 'snapshot.db'), at.field).catch((error: unknown) => {
          throw storageError(error);
        });
        prepared = ready;
        // Every developer's books and the sandbox-wide sum, on the file, before anything is replaced:
        // an edited snapshot would otherwise bring money from nowhere into a live sandbox.
        if (force)
          warn(
            `Warning: restoring ${at.file ?? `snapshot "${at.name}"`} with --force: the audit of its books (that they balance) was skipped`,
          );
        else {
          const report = await hooks.read(ready.path, AUDIT);
          if (!report.ok) throw unbalanced(at.field, report);
        }
        let keys: ApiKeyRow[] = [];
        let ownerNow: string | undefined;
        let requestLog: CarriedRequestLog | undefined;
        await scheduler.quiesce(() =>
          sandbox.restore(() =>
            hooks.replace(ready.path, {
              // A named snapshot this version saved holds together; a file from elsewhere, or a migrated one, is checked.
              checkForeignKeys: ready.migrated || at.name === null,
              async before(trx) {
                keys = await allKeys(trx);
                ownerNow = await getSetting(trx, SANDBOX_DEVELOPER);
                requestLog = await readRequestLog(trx);
              },
              async after(trx) {
                const ownerRestored = await getSetting(trx, SANDBOX_DEVELOPER);
                if (!ownerNow || !ownerRestored) throw snapshotInvalid(at.field, 'has no sandbox owner');
                await carryKeys(trx, keys, ownerNow, ownerRestored);
                if (requestLog) await putBackRequestLog(trx, requestLog, { from: ownerNow, to: ownerRestored });
              },
            }),
          ),
        );
        return info;
      } catch (error) {
        // Truncated or overwritten: found by the audit, or by the copy (--force, a part the audit does not read).
        if (hooks.isDamaged(error)) throw damagedSnapshot(at.field, error);
        throw error;
      } finally {
        if (prepared) await hooks.discard(prepared.path).catch(() => {});
        rmSync(work, { recursive: true, force: true });
      }
    },
    list() {
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .flatMap((entry) => {
          const format = (Object.keys(SNAPSHOT_FORMATS) as SnapshotFormat[]).find((f) =>
            entry.endsWith(SNAPSHOT_FORMATS[f]),
          );
          const name = format && entry.slice(0, -SNAPSHOT_FORMATS[format].length);
          return format && name && SNAPSHOT_NAME.test(name) ? [{ name, format }] : [];
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map(({ name, format }) => {
          const at = located({ name }, format);
          try {
            return describe(at);
          } catch {
            return { name: at.name, file: null, format, size_bytes: statSync(at.path).size, saved_at: null };
          }
        });
    },
    remove(name) {
      existing({ name });
      for (const format of Object.keys(SNAPSHOT_FORMATS) as SnapshotFormat[])
        rmSync(located({ name }, format).path, { force: true });
      syncFile(dir);
    },
  };
}

/**
 * A target that cannot be written is the caller's to fix (400 on the field), unless the disk is
 * full or the storage fails, which keep their own codes (507, 503).
 */
function unwritable(error: unknown, field: string, path: string): unknown {
  const code = String((error as { code?: unknown }).code ?? '');
  if (
    !(error instanceof LedgerError) &&
    /^(EACCES|EISDIR|ENOTDIR|ENOENT|EROFS|EPERM|SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_ERROR)/.test(code)
  ) {
    return invalidField(field, `cannot be written at ${path} (${code.replace('SQLITE_', '').toLowerCase()})`);
  }
  return storageError(error);
}

/** A full disk (also the file system's ENOSPC) is 507 and a storage failure 503, as for any write (decisions: Storage). */
function storageError(error: unknown): unknown {
  if ((error as { code?: unknown }).code === 'ENOSPC')
    return new LedgerError('STORAGE_FULL', 'the disk is full: nothing was written; free some space and retry');
  return storageFailure(error) ?? error;
}

/** The snapshot directory: readable by its owner only, as every file in it (decisions: Keys and secrets). */
function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** `path` as the file system names it: through links, or (when it does not exist yet) through its directory's. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * Whether `path` is the database at `dbPath` or one of the files kept beside it (`-wal`, `-shm`,
 * `-journal`, the server's `-lock` files), by name, through a link, or as a hard link of one.
 */
function isOwnFile(path: string, dbPath: string): boolean {
  const db = realPath(dbPath);
  const target = realPath(path);
  if (target === db || target.startsWith(`${db}-`)) return true;
  try {
    const { dev, ino } = statSync(target);
    return readdirSync(dirname(db))
      .filter((entry) => entry === basename(db) || entry.startsWith(`${basename(db)}-`))
      .some((entry) => {
        const other = statSync(join(dirname(db), entry), { throwIfNoEntry: false });
        return other !== undefined && other.dev === dev && other.ino === ino;
      });
  } catch {
    return false;
  }
}

/** Temp files a killed save left beside `path` (their process is gone). */
function removeStaleTemporaries(path: string): void {
  const prefix = `.${basename(path)}.tmp-`;
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(entry.slice(prefix.length).split('-')[0]);
    if (pid !== process.pid && !isAlive(pid)) rmSync(join(dirname(path), entry), { force: true });
  }
}
