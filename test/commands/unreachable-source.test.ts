import { describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/cli.js';
import { commandIn } from '../helpers/io.js';

/**
 * Nothing answers at the base URL: the error names the setting that chose it, so a stale
 * LEDGER_BASE_URL left in a shell is found without `ledger whoami`.
 */
const KEY = 'svc_test_00000000000000000000000000000000';

describe('a base URL where nothing listens', () => {
  it('names LEDGER_BASE_URL when the environment chose it, exit 3', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await commandIn('/nonexistent', ['wallets', 'list'], {
      env: { LEDGER_BASE_URL: url, LEDGER_API_KEY: KEY },
    });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      3,
      '',
      `Error [UNREACHABLE]: cannot reach the sandbox at ${url} (from LEDGER_BASE_URL) (ECONNREFUSED): start it with \`ledger sandbox start --detach\`\n`,
    ]);
  });

  it('names --base-url when the flag chose it', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await commandIn('/nonexistent', ['sandbox', 'status', '--base-url', url], { env: {} });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      `Error [UNREACHABLE]: cannot reach the sandbox at ${url} (from --base-url) (ECONNREFUSED)`,
    );
  });
});
