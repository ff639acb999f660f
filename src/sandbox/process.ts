import { spawn } from 'node:child_process';
import { chmodSync, closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPathFor, readOwner } from '../engine/db/owner-file.js';
import { isAlive } from '../engine/processes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DetachOptions {
  args: string[];
  logFile: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Resolves true once the child is serving. */
  ready: (pid: number) => Promise<boolean>;
  timeoutMs?: number;
}

/**
 * Starts `ledger <args>` in the background with its output in `logFile`, and waits until
 * `ready` says it serves. Fails with the log's tail if it exits first or never gets there.
 */
export async function spawnDetached(options: DetachOptions): Promise<number> {
  const log = openSync(options.logFile, 'a', 0o600);
  chmodSync(options.logFile, 0o600);
  // The log is appended to across starts: a failure reports only what this start wrote, not an
  // earlier start's error (a PORT_IN_USE from before reported for today's DATABASE_IN_USE).
  const from = fstatSync(log).size;
  const child = spawn(process.execPath, [process.argv[1]!, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let exited: number | null | undefined;
  child.on('exit', (code) => {
    exited = code;
  });
  const pid = child.pid!;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  try {
    while (Date.now() < deadline) {
      if (exited !== undefined)
        throw new Error(`the sandbox exited (code ${exited}) before it was ready:\n${tail(options.logFile, from)}`);
      if (await options.ready(pid)) return pid;
      await sleep(20);
    }
    process.kill(pid, 'SIGTERM');
    throw new Error(
      `the sandbox did not become healthy within ${(options.timeoutMs ?? 30_000) / 1000} s:\n${tail(options.logFile, from)}`,
    );
  } finally {
    child.unref();
  }
}

/** The last lines of what `file` holds past byte `from`. */
function tail(file: string, from: number): string {
  try {
    return readFileSync(file).subarray(from).toString('utf8').trimEnd().split('\n').slice(-10).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Sends SIGTERM, waits for a clean exit, and kills it if it will not go. Returns true if it had to kill. */
export async function stopProcess(pid: number, graceMs = 10_000): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return false;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return false;
    await sleep(50);
  }
  process.kill(pid, 'SIGKILL');
  return true;
}

/** A sandbox process found for a state directory, through the lock it holds there. */
export interface FoundServer {
  pid: number;
  base_url: string | null;
  db: string | null;
  /** The lock whose owner it is (to confirm it is still held before stopping it). */
  lock: string;
}

/**
 * The sandbox that serves this state directory, if its process lives. The state file's pid counts
 * only when that process owns one of the directory's locks: after a sandbox was killed, its pid may
 * belong to anything (another job's sandbox, a shell), which `stop` must never signal. When the file
 * is gone (or names a process that ended), the locks in the directory name it. `stop` and `status`
 * both ask this, so they agree.
 */
export function findServer(
  state: { pid?: number | undefined; base_url: string; db: string } | undefined,
  stateDir: string,
  memoryLock: string,
): FoundServer | undefined {
  const locks = [
    ...(state && state.db !== ':memory:' ? [lockPathFor(state.db)] : []),
    lockPathFor(join(stateDir, 'sandbox.db')),
    join(stateDir, memoryLock),
  ];
  const owners = locks.map((lock) => ({ lock, owner: readOwner(lock) }));
  const named = owners.find(({ owner }) => state?.pid !== undefined && owner?.pid === state.pid);
  if (named && isAlive(named.owner!.pid))
    return { pid: named.owner!.pid, base_url: state!.base_url, db: state!.db, lock: named.lock };
  for (const { lock, owner } of owners) {
    if (owner && isAlive(owner.pid)) return { pid: owner.pid, base_url: owner.base_url, db: owner.db, lock };
  }
  return undefined;
}
