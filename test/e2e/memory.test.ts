import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { isAlive } from '../../src/engine/processes.js';
import { createCli } from '../helpers/cli.js';

/**
 * `sandbox start --memory` keeps its throw-away database in a temporary file of its own (off the
 * server's heap, readable by its worker threads): nothing of it outlives the server, and what a
 * killed server left behind is removed by the next one.
 */
it('a --memory sandbox keeps its database in a folder of its own, removed when it stops, or by the next start when it was killed', async () => {
  const cli = createCli();
  const tmp = join(cli.dir, 'tmp');
  mkdirSync(tmp);
  const env = { TMPDIR: tmp };
  const folders = () => readdirSync(tmp).filter((name) => name.startsWith('ledger-memory-'));
  try {
    const started = await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--json'], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    const { base_url: base, api_key: key, pid } = JSON.parse(started.stdout);
    expect(folders()).toHaveLength(1);
    const [folder] = folders();
    expect(existsSync(join(tmp, folder!, 'sandbox.db'))).toBe(true);
    const audit = await fetch(`${base}/sandbox/audit`, { headers: { 'x-api-key': key } }).then(
      (r) => r.json() as Promise<{ data: { ok: boolean } }>,
    );
    expect(audit.data.ok).toBe(true);
    expect((await cli.run(['sandbox', 'stop'], { env })).exitCode).toBe(0);
    expect(folders()).toEqual([]);

    const killed = JSON.parse(
      (await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--json'], { env })).stdout,
    );
    process.kill(killed.pid, 'SIGKILL');
    for (let i = 0; i < 100 && isAlive(killed.pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const left = folders();
    expect(left).toHaveLength(1);
    const next = JSON.parse(
      (await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--json'], { env })).stdout,
    );
    expect(next.pid).not.toBe(pid);
    expect(folders()).toHaveLength(1);
    expect(folders()).not.toContain(left[0]);
  } finally {
    await cli.run(['sandbox', 'stop'], { env });
    cli.cleanup();
  }
});
