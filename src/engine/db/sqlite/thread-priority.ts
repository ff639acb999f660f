import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread alone (a worker's; the request thread keeps its
 * own): on a busy machine work that scales with the data (an audit of a million rows, 40 s of CPU;
 * a reset's deletes) would otherwise take turns on the cores with the request thread and delay its
 * answers. Linux names a thread by its own id, which /proc/thread-self gives; elsewhere the thread
 * keeps its priority.
 */
export function lowerThisThread(nice: number): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // not Linux, or not allowed: the same work, at the same priority as the server
  }
}
