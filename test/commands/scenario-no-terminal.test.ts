import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sectionOf } from '../helpers/docs.js';
import { scenarioRunIn } from '../helpers/io.js';

/**
 * What docs/scenarios.md says of confirmations in a step (no terminal, so none is asked: a payout and
 * a close go ahead without --yes; `sandbox reset` alone needs it), checked by running its example.
 */
const cwd = mkdtempSync(join(tmpdir(), 'ledger-no-terminal-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('scenario steps and confirmations', () => {
  it('seen: the doc said a payout or a close needed --yes; its example, without, passes, and sandbox reset without --yes is USAGE', async () => {
    const section = sectionOf('docs/scenarios.md', '## Where the steps run');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(yaml, 'docs/scenarios.md "Where the steps run" shows a scenario').toBeDefined();
    expect(yaml).toMatch(/^ {2}- run: transfer \$\{ADA\} \d+ \d+ --bank \d{3} +#/m);
    expect(yaml).toMatch(/^ {2}- run: wallets close \$\{ADA\} +#/m);
    writeFileSync(join(cwd, 'asked.yaml'), yaml!);
    const run = await scenarioRunIn(cwd, ['asked.yaml', '--reporter', 'tap']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^ {4}ok 1 - no terminal, nothing asked$/m);
    // The close expecting the wallet still ACTIVE fails: the expectations are read.
    writeFileSync(join(cwd, 'asked.yaml'), yaml!.replace('data.status: CLOSED', 'data.status: ACTIVE'));
    const failed = await scenarioRunIn(cwd, ['asked.yaml', '--reporter', 'tap']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toContain(`message: 'data.status: expected "ACTIVE", got "CLOSED"'`);
  });
});
