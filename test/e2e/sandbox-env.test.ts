import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execa } from 'execa';
import { closedPort, createCli, sandboxState, useCli } from '../helpers/cli.js';

/**
 * `eval "$(ledger sandbox env)"` in a shell that already points elsewhere: the exports are this
 * folder's sandbox, and an UNREACHABLE error says which setting chose the URL nobody answers at.
 */
const cli = useCli();
let baseUrl: string;
let apiKey: string;

beforeAll(async () => {
  expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
  ({ baseUrl, apiKey } = sandboxState(cli.dir));
});

describe('sandbox env in a shell that already has LEDGER_BASE_URL', () => {
  it("prints this folder's sandbox and names the variables it replaces on stderr", async () => {
    const stale = {
      LEDGER_BASE_URL: 'http://127.0.0.1:1',
      LEDGER_API_KEY: 'svc_test_11111111111111111111111111111111',
    };
    const r = await cli.run(['sandbox', 'env'], { env: stale });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      0,
      `export LEDGER_BASE_URL='${baseUrl}'\nexport LEDGER_API_KEY='${apiKey}'\n`,
      'Note: these replace the LEDGER_BASE_URL and LEDGER_API_KEY this environment holds.\n',
    ]);
    // Still eval-able: a shell that evaluates it ends up with this folder's sandbox.
    const shell = await execa(
      'sh',
      ['-c', `eval "$1" && printf '%s %s' "$LEDGER_BASE_URL" "$LEDGER_API_KEY"`, 'sh', r.stdout],
      { env: stale },
    );
    expect(shell.stdout).toBe(`${baseUrl} ${apiKey}`);
    const json = await cli.run(['sandbox', 'env', '--json'], { env: { LEDGER_BASE_URL: 'http://127.0.0.1:1' } });
    expect([json.exitCode, JSON.parse(json.stdout)]).toEqual([0, { LEDGER_BASE_URL: baseUrl, LEDGER_API_KEY: apiKey }]);
  });

  it('says nothing when the environment already holds its values', async () => {
    const r = await cli.run(['sandbox', 'env'], { env: { LEDGER_BASE_URL: baseUrl, LEDGER_API_KEY: apiKey } });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
  });
});

describe('an UNREACHABLE error', () => {
  it('names LEDGER_BASE_URL when it points at a closed loopback port, exit 3', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await cli.run(['wallets', 'list'], { env: { LEDGER_BASE_URL: url, LEDGER_API_KEY: apiKey } });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      3,
      '',
      `Error [UNREACHABLE]: cannot reach the sandbox at ${url} (from LEDGER_BASE_URL) (ECONNREFUSED): start it with \`ledger sandbox start --detach\`\n`,
    ]);
  });

  it("names this folder's state file once its sandbox is stopped", async () => {
    const other = createCli();
    try {
      expect((await other.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
      const { LEDGER_BASE_URL: url } = await other.json(['sandbox', 'env']);
      expect((await other.run(['sandbox', 'stop'])).exitCode).toBe(0);
      const r = await other.run(['wallets', 'list']);
      expect([r.exitCode, r.stderr]).toEqual([
        3,
        `Error [UNREACHABLE]: cannot reach the sandbox at ${url} (from ${join(other.dir, '.ledger', 'sandbox.json')}) (ECONNREFUSED): ` +
          `start it with \`ledger sandbox start --detach\`\n`,
      ]);
    } finally {
      await other.run(['sandbox', 'stop']);
      other.cleanup();
    }
  });
});
