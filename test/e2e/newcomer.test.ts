import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cli, createCli } from '../helpers/cli.js';

/**
 * What a developer new to the tool tripped on, following the README and the `--help` examples
 * (the built binary through execa, against a real sandbox on a loopback port).
 */

describe('starting a second sandbox', () => {
  it('seen: a start that failed once (PORT_IN_USE) made every later failed start in that directory report that old error; now each reports its own', async () => {
    const first = createCli();
    const second = createCli();
    const blocker = createServer();
    try {
      const db = join(first.dir, 'shared.db');
      const started = await first.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db]);
      expect(started.exitCode, started.stderr).toBe(0);
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const port = (blocker.address() as { port: number }).port;

      const portTaken = await second.run(['sandbox', 'start', '--detach', '--port', String(port)]);
      expect(portTaken.exitCode).toBe(1);
      expect(portTaken.stderr).toContain(`Error [PORT_IN_USE]: port ${port} on 127.0.0.1 is in use`);

      // Same directory, a free port, but the database another sandbox serves.
      const dbTaken = await second.run(['sandbox', 'start', '--detach', '--port', '0', '--db', db]);
      expect(dbTaken.exitCode).toBe(1);
      expect(dbTaken.stderr).toContain(`Error [DATABASE_IN_USE]: ${db} is served by another sandbox`);
      expect(dbTaken.stderr).not.toContain('PORT_IN_USE');
    } finally {
      blocker.close();
      await first.run(['sandbox', 'stop']);
      await second.run(['sandbox', 'stop']);
      first.cleanup();
      second.cleanup();
    }
  });
});
