import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scenarioRunIn, refusalLine } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

/**
 * `scenario run --base-url`: the running sandbox keeps what earlier scenarios and runs (or anyone)
 * delivered to its built-in receiver. A scenario's expect_webhook is about its own deliveries.
 */
const t = useSandbox({ listen: true });
const cwd = mkdtempSync(join(tmpdir(), 'ledger-base-url-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const SCENARIO = `name: a credit's webhook
steps:
  - run: wallets create --customer-reference bola --first-name Bola --last-name Ade --email bola@example.com
    save: { BOLA: data.id }
  - run: sandbox receiver fail --status 500 --times 10
  - run: credit \${BOLA} 1000 --narration salary
  - expect_webhook: ledger.credit
    match: { data.amount: 1000 }
`;

describe('scenario run --base-url and the deliveries already received', () => {
  it("an expect_webhook fails when the scenario's own delivery got 500 each time, though an earlier delivery of the same amount arrived", async () => {
    // Before the run: a ledger.credit of 1000 delivered and accepted.
    await createWallet(t, 1_000);
    await t.call('POST', '/sandbox/clock/advance', { seconds: 1 });
    expect((await t.call('GET', '/sandbox/receiver/events')).body.data.items).toMatchObject([
      { event_type: 'ledger.credit', response_status: 200 },
    ]);

    writeFileSync(join(cwd, 'credit.yaml'), SCENARIO);
    const run = await scenarioRunIn(cwd, ['credit.yaml', '--base-url', t.baseUrl!, '--api-key', t.key]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(
      'no ledger.credit delivery with data.amount 1000 reached the built-in receiver after 5 scheduler passes (0 other ledger.credit deliveries)',
    );
    expect(run.stderr).toBe(
      'Error [SCENARIO_FAILED]: 1 of 1 scenario did not pass: credit.yaml:1 "a credit\'s webhook"\n',
    );
    await t.call('PUT', '/sandbox/receiver/behaviour', { status: 200, count: 0 });
  });

  it('refuses --seed with --base-url', async () => {
    // The running sandbox keeps its own seed: the scenario would run on it without a word.
    writeFileSync(join(cwd, 'credit.yaml'), SCENARIO);
    const run = await scenarioRunIn(cwd, ['credit.yaml', '--base-url', t.baseUrl!, '--api-key', t.key, '--seed', '7']);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'Error [USAGE]: --seed has no effect with --base-url: the sandbox there has the seed it was started with (`ledger sandbox start --seed 7`)\n',
    ]);
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
  });

  it('a --base-url that is not a sandbox, or a key it refuses, is one error before anything runs, and no report', async () => {
    writeFileSync(join(cwd, 'credit.yaml'), SCENARIO);
    const { createServer } = await import('node:http');
    const other = createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    try {
      const elsewhere = await scenarioRunIn(cwd, [
        'credit.yaml',
        '--base-url',
        url,
        '--api-key',
        t.key,
        '--output',
        'report.xml',
      ]);
      // Its /openapi.json (a 404 here) lists no /sandbox path: refused before the key is sent.
      expect([elsewhere.exitCode, elsewhere.stdout, elsewhere.stderr]).toEqual([
        2,
        '',
        'Error [SANDBOX_ONLY]: `ledger scenario run --base-url` works only against a ledger sandbox, ' +
          `and ${url} (from --base-url) has none of the sandbox's routes (its /openapi.json lists no /sandbox path); ` +
          'nothing was sent\n',
      ]);
      expect(existsSync(join(cwd, 'report.xml'))).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    const refused = await scenarioRunIn(cwd, [
      'credit.yaml',
      '--base-url',
      t.baseUrl!,
      '--api-key',
      'svc_test_00000000000000000000000000000000',
    ]);
    expect([refused.exitCode, refused.stdout, refused.stderr]).toEqual([
      1,
      '',
      refusalLine('Error [UNAUTHORIZED]: API key is invalid or has been rotated\n'),
    ]);
  });
});

/**
 * Scenarios that each fail where a report echoes what the step saw: the key as a value compared
 * (alone, inside an object, in a list), as a saved variable in a command line, a request path and an expectation.
 */
const ECHOES = `name: the key compared as text
steps:
  - run: sandbox keys
    expect: { data.api_key: not-the-key }
---
name: the key inside an object that differs
steps:
  - run: sandbox keys
    expect: { data: { eq: { api_key: not-the-key } } }
---
name: the key in a list
steps:
  - run: sandbox keys
    save: { KEY: data.api_key }
  - request: GET /sandbox/clock
    expect: { data.now: { one_of: ["\${KEY}", 1] } }
---
name: the key in a command line and an expectation
steps:
  - run: sandbox keys
    save: { KEY: data.api_key }
  - run: wallets get \${KEY}
    expect: { data.id: "\${KEY}" }
---
name: the key in a request path
steps:
  - run: sandbox keys
    save: { KEY: data.api_key }
  - request: GET /v1/wallets/\${KEY}
    headers: { x-api-key: "\${KEY}" }
    expect: { status: 200 }
`;

describe('the reports of a --base-url run', () => {
  it('TAP and JUnit show only the hint of a value that holds the key, wherever a failure echoes it', async () => {
    writeFileSync(join(cwd, 'echoes.yaml'), ECHOES);
    const hint = `${t.key.slice(0, 9)}…${t.key.slice(-4)}`;
    const tap = await scenarioRunIn(cwd, [
      'echoes.yaml',
      '--base-url',
      t.baseUrl!,
      '--api-key',
      t.key,
      '--reporter',
      'tap',
    ]);
    const junit = await scenarioRunIn(cwd, [
      'echoes.yaml',
      '--base-url',
      t.baseUrl!,
      '--api-key',
      t.key,
      '--output',
      'echoes.xml',
    ]);
    const xml = readFileSync(join(cwd, 'echoes.xml'), 'utf8');
    expect([tap.exitCode, junit.exitCode]).toEqual([1, 1]);
    // Every scenario failed where it echoes the key, and each report says so.
    expect(tap.stdout.match(/^ {4}not ok \d+ - /gm)).toHaveLength(5);
    expect(xml.match(/<failure /g)).toHaveLength(5);
    for (const output of [tap.stdout, tap.stderr, junit.stdout, junit.stderr, xml])
      expect(output).not.toContain(t.key.slice('svc_test_'.length));
    // The key was there to echo: each report shows its hint.
    for (const report of [tap.stdout, junit.stdout, xml]) expect(report).toContain(hint);
  });
});
