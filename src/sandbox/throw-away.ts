import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../engine/processes.js';

const PREFIX = 'ledger-memory-';
/** A folder with no owner file yet is left alone this long: its server may be writing that file now. */
const CLAIM_GRACE_MS = 60_000;

export interface ThrowAwayDatabase {
  /** The database file, in a folder of its own. */
  path: string;
  /** Removes the folder and everything in it. */
  remove(): void;
}

/**
 * Where `sandbox start --memory` keeps its database: a file in a temporary folder of its own,
 * removed when the server stops. An SQLite `:memory:` database lives in the server's heap (about
 * 900 MB after 100,000 transfers) and only its one connection can read it; as a file, its pages
 * are the kernel's cache to keep or drop, and the worker threads open it too (the background
 * checkpoints, an audit off the request thread). Nothing in it outlives the server; folders left
 * by a server that was killed are removed by the next one that starts.
 * @example const db = createThrowAwayDatabase(); await openSandbox({ dbPath: db.path, throwAway: true }); ... db.remove();
 */
export function createThrowAwayDatabase(): ThrowAwayDatabase {
  sweepAbandoned();
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, 'owner'), String(process.pid));
  return { path: join(dir, 'sandbox.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Folders of throw-away databases whose server is gone (killed before it could remove its own). */
function sweepAbandoned(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(tmpdir(), name);
    try {
      const pid = Number(readFileSync(join(dir, 'owner'), 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) rmSync(dir, { recursive: true, force: true });
    } catch {
      // No owner file: a server that is starting (or one that died before writing it long ago).
      try {
        if (Date.now() - statSync(dir).mtimeMs > CLAIM_GRACE_MS) rmSync(dir, { recursive: true, force: true });
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  }
}
