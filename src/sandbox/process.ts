import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
  const log = openSync(options.logFile, 'a');
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
      if (exited !== undefined) throw new Error(`the sandbox exited (code ${exited}) before it was ready:\n${tail(options.logFile)}`);
      if (await options.ready(pid)) return pid;
      await sleep(20);
    }
    process.kill(pid, 'SIGTERM');
    throw new Error(`the sandbox did not become healthy within ${(options.timeoutMs ?? 30_000) / 1000} s:\n${tail(options.logFile)}`);
  } finally {
    child.unref();
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-10).join('\n');
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

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
