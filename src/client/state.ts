import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ApiError, UsageError } from './errors.js';
import { isLoopback } from './loopback.js';

/** What `ledger sandbox start` remembers for the commands that follow (file mode 0600: it holds the key). */
export interface SandboxState {
  base_url: string;
  /**
   * The owner's key. Absent when the sandbox joined a shared (PostgreSQL) database whose owner's key
   * this start was not given: no key is made there (it would revoke the one in use), and commands
   * that need one say how to give it (config.ts, requireKey).
   */
  api_key?: string | undefined;
  /** The database as it may be shown: a file path, ':memory:', or a postgres:// URL with its password as `***`. */
  db: string;
  pid?: number | undefined;
  log_file?: string | undefined;
  started_at?: string | undefined;
  /**
   * With TLS, the SHA-256 fingerprint of the certificate the sandbox serves: the CLI here accepts
   * that certificate and no other at `base_url`, whoever it is issued to and whether or not anything trusts it.
   */
  tls_fingerprint?: string | undefined;
}

export const STATE_DIR = '.ledger';
export const STATE_FILE = 'sandbox.json';
/** Where named snapshots live, in the state directory (mode 0700, files 0600). */
export const SNAPSHOT_DIR = 'snapshots';
/** The lock of an in-memory sandbox, in the state directory: how `stop` finds it without the state file. */
export const MEMORY_LOCK = 'memory-lock';
/** Set in the environment of a detached sandbox, whose output goes to a log file. */
export const DETACHED_ENV = 'LEDGER_SANDBOX_DETACHED';

/** Where `sandbox start` keeps its state and default database: $LEDGER_HOME, else ./.ledger. */
export function stateDirFor(cwd: string, env: NodeJS.ProcessEnv): string {
  return env.LEDGER_HOME ? resolve(cwd, env.LEDGER_HOME) : join(cwd, STATE_DIR);
}

/**
 * The state file a client should read: $LEDGER_HOME's, else the nearest .ledger/sandbox.json up from
 * cwd. As git's GIT_CEILING_DIRECTORIES, LEDGER_CEILING_DIRECTORIES (absolute paths, `:`-separated)
 * names directories the search never goes up into: a shared /tmp's .ledger is not another's state.
 */
export function findStateFile(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (env.LEDGER_HOME) {
    const file = join(resolve(cwd, env.LEDGER_HOME), STATE_FILE);
    return existsSync(file) ? file : undefined;
  }
  const ceilings = new Set(
    (env.LEDGER_CEILING_DIRECTORIES ?? '')
      .split(':')
      .filter((dir) => isAbsolute(dir))
      .flatMap((dir) => [resolve(dir), real(dir)]),
  );
  let dir = resolve(cwd);
  for (;;) {
    const file = join(dir, STATE_DIR, STATE_FILE);
    if (existsSync(file)) return file;
    const parent = dirname(dir);
    if (parent === dir || ceilings.has(parent)) return undefined;
    dir = parent;
  }
}

/** A directory with its symbolic links resolved (as the working directory is), or as given when it does not exist. */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

export function readState(file: string): SandboxState | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SandboxState;
  } catch {
    return undefined;
  }
}

/** What a state file holds, or why it may not be used (`problem`: a sentence naming the file). */
export interface CheckedState {
  state: SandboxState | undefined;
  problem: string | undefined;
}

/**
 * Reads a state file and says whether it may be used. The search goes up into shared folders (a
 * /tmp/.ledger anyone can make), and a state file tells a command where to send its requests: it
 * counts only when this user owns it and its folder, nobody else can write either, and it names a
 * loopback URL. Read through the descriptor that was checked, so the file cannot be swapped between.
 */
export function checkState(file: string): CheckedState {
  let stats: Stats;
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      stats = fstatSync(fd);
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return { state: undefined, problem: undefined };
  }
  const dir = dirname(file);
  const problem =
    foreignOrShared(file, stats, 'it') ?? foreignOrShared(dir, statSync(dir, { throwIfNoEntry: false }), file);
  let state: SandboxState | undefined;
  try {
    state = JSON.parse(text) as SandboxState;
  } catch {
    return { state: undefined, problem };
  }
  if (problem || !state) return { state, problem };
  // A base URL that is not an http(s) URL at all is refused where every base URL is checked (config.ts).
  const url = URL.canParse(String(state.base_url)) ? new URL(String(state.base_url)) : undefined;
  const remote = url && /^https?:$/.test(url.protocol) && !isLoopback(url.hostname);
  return {
    state,
    problem: remote
      ? `${file} names ${String(state.base_url)}, which is not a loopback address (127.0.0.0/8, ::1 or localhost); not using it`
      : undefined,
  };
}

/** checkState's state, or STATE_FILE_UNTRUSTED (exit 2) with its reason. */
export function readTrustedState(file: string): SandboxState | undefined {
  const { state, problem } = checkState(file);
  if (problem) throw untrustedState(problem);
  return state;
}

/** The refusal of a state file checkState does not trust, with the way out. */
export function untrustedState(problem: string): UsageError {
  return new UsageError(
    `${problem} (set LEDGER_HOME to your sandbox's .ledger folder, or LEDGER_BASE_URL and LEDGER_API_KEY)`,
    'STATE_FILE_UNTRUSTED',
  );
}

/** Why `path` (the state file or its folder) could be someone else's doing, if it could; `using` names what is then not used. */
function foreignOrShared(path: string, stats: Stats | undefined, using: string): string | undefined {
  // Windows has neither uids nor these mode bits (getuid is undefined there).
  const uid = process.getuid?.();
  if (!stats || uid === undefined) return undefined;
  if (stats.uid !== uid) return `${path} is owned by another user (uid ${stats.uid}); not using ${using}`;
  if ((stats.mode & 0o022) !== 0)
    return `${path} is writable by other users (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); not using ${using}`;
  return undefined;
}

/** Makes the state directory, readable by its owner only (mode 0700: it holds the key and the database). */
export function makeStateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (error) {
    throw unwritable(dir, error);
  }
}

/** Writes atomically with mode 0600, in a directory of mode 0700. */
export function writeState(file: string, state: SandboxState): void {
  makeStateDir(dirname(file));
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, file);
  } catch (error) {
    // A full disk: the state file stays as it was, with no half-written copy beside it.
    rmSync(temporary, { force: true });
    throw unwritable(dirname(file), error);
  }
}

/**
 * A state directory the file system refuses (a read-only checkout, a home owned by another user):
 * said with the directory and the way out, instead of an INTERNAL error naming a syscall. A full disk
 * (ENOSPC, EDQUOT) stays what it is: `sandbox start` says STORAGE_FULL of it.
 */
function unwritable(dir: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (!code || !['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST'].includes(code)) return error;
  return new ApiError(
    0,
    'STATE_DIR_UNWRITABLE',
    `cannot write the sandbox's state directory ${dir} ` +
      `(${code === 'EEXIST' || code === 'ENOTDIR' ? `${code}: a file is in its way` : code}): ` +
      `run from a directory you can write to, or set LEDGER_HOME to one`,
  );
}
