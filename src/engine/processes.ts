/**
 * True while a process with this pid lives: whether an owner file, a state file or a folder's claim
 * still speaks for a running process. EPERM: it lives, as another user's process. Signals alone, so
 * a client command that asks loads no database code.
 * @example if (!isAlive(owner.pid)) rmSync(folder, { recursive: true });
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
