import { createRequire } from 'node:module';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread with its own SQLite connection (the checkpointer, a snapshot copy). `body` runs
 * as an ES module with `parentPort`, `workerData` and the driver `SQLite` in scope. A data: URL
 * module, not `eval` source: eval'd worker code follows the host's `--input-type`, and under
 * `--input-type=module` (a test suite's choice) `require` would not exist there.
 * @example startSqliteWorker("const db = new SQLite(workerData.path); …", { path })
 */
export function startSqliteWorker(
  body: string,
  workerData: Record<string, unknown>,
  options: Omit<WorkerOptions, 'workerData' | 'eval'> = {},
): Worker {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const source = `import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
const SQLite = createRequire(workerData.driver)(workerData.driver);
${body}`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    ...options,
    workerData: { ...workerData, driver },
  });
}
