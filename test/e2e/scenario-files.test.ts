import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { closedPort, useCli } from '../helpers/cli.js';
import { sectionOf } from '../helpers/docs.js';

/**
 * `ledger scenario run` through the built binary: every step kind and matcher holding and failing,
 * malformed files with their lines, ${…} in command lines, paths and bodies, the failed payout
 * through its reversal, JUnit checked against the Jenkins JUnit XSD, TAP the same in every run of
 * one seed, --bail, --seed, --snapshot, --base-url, exit 3, and `scenario init`.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/scenarios');
const XSD = readFileSync(join(ROOT, 'test/fixtures/junit-4.xsd'), 'utf8');

interface TestPoint {
  ok: boolean;
  directive?: string;
  diagnostics: Record<string, any>;
}

/** The test points of a TAP 14 report, by scenario name, with their YAML diagnostics. */
function tapPoints(tap: string): Map<string, TestPoint> {
  const points = new Map<string, TestPoint>();
  const lines = tap.split('\n');
  lines.forEach((line, i) => {
    const point = /^ {4}(ok|not ok) \d+ - (.*?)(?: # (SKIP .*))?$/.exec(line);
    if (!point) return;
    let diagnostics: Record<string, any> = {};
    if (lines[i + 1] === '      ---') {
      const end = lines.indexOf('      ...', i + 1);
      diagnostics = parse(
        lines
          .slice(i + 2, end)
          .map((l) => l.slice(6))
          .join('\n'),
      );
    }
    points.set(point[2]!, { ok: point[1] === 'ok', ...(point[3] ? { directive: point[3] } : {}), diagnostics });
  });
  return points;
}

async function validJunit(xml: string): Promise<void> {
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    schema: [{ fileName: 'junit-4.xsd', contents: XSD }],
  });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

/** TAP without what changes from run to run (durations). */
const withoutDurations = (tap: string) => tap.replace(/duration_ms: \d+/g, 'duration_ms: <n>');

const cli = useCli('all');

describe('scenario run: passing', () => {
  it('runs every example (every flow of the quickstart) and writes JUnit that the JUnit XSD accepts', async () => {
    const run = await cli.run([
      'scenario',
      'run',
      join(ROOT, 'examples/scenarios'),
      '--reporter',
      'junit',
      '--output',
      'report.xml',
    ]);
    expect(run.stderr).toBe('JUnit XML written to report.xml\n');
    expect(run.exitCode).toBe(0);
    for (const name of ['agents', 'payouts', 'quickstart', 'suspense', 'webhooks'])
      expect(run.stdout).toContain(`examples/scenarios/${name}.yaml\n  ✓ `);
    expect(run.stdout).toMatch(/^5 scenarios: 5 passed \(5 files, /m);
    const xml = readFileSync(join(cli.dir, 'report.xml'), 'utf8');
    await validJunit(xml);
    expect(xml).toMatch(/<testsuites name="ledger scenario run" tests="5" failures="0" errors="0"/);
    expect(xml.match(/<testsuite /g)).toHaveLength(5);
    expect(xml).not.toMatch(/<failure|<error/);
  });

  it("runs the walkthrough's scenario file as written, and it fails when its last expectation does not hold", async () => {
    const section = sectionOf('docs/walkthroughs.md', '### Scenario files');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    expect(yaml).toContain('expect: { status: 200, data.balance: 500000 }');
    writeFileSync(join(cli.dir, 'readme.yaml'), yaml);
    const run = await cli.run(['scenario', 'run', 'readme.yaml']);
    expect(run.exitCode).toBe(0);
    expect(tapPoints(run.stdout).get('A payout to the failing account is reversed')?.ok).toBe(true);
    writeFileSync(join(cli.dir, 'readme.yaml'), yaml.replace('data.balance: 500000', 'data.balance: 449000'));
    const failed = await cli.run(['scenario', 'run', 'readme.yaml']);
    expect(failed.exitCode).toBe(1);
    expect(tapPoints(failed.stdout).get('A payout to the failing account is reversed')?.diagnostics.message).toBe(
      'data.balance: expected 449000, got 500000',
    );
  });

  it('holds every step kind and matcher, with ${…} in command lines, request paths, bodies and headers', async () => {
    const run = await cli.run(['scenario', 'run', join(FIXTURES, 'every-step.yaml'), '--reporter', 'tap']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const points = tapPoints(run.stdout);
    expect(points.get('every step and matcher, passing')?.ok).toBe(true);
    expect(run.stdout).toMatch(/^# pass 1$/m);
  });

  it('drives a payout to the failing magic account through its reversal with advance and expect_webhook, and a wrong balance fails it', async () => {
    const good = await cli.run(['scenario', 'run', join(ROOT, 'examples/scenarios/payouts.yaml')]);
    expect(good.exitCode).toBe(0);
    expect(tapPoints(good.stdout).get('Payouts - settled, and failed then reversed')?.ok).toBe(true);

    const text = readFileSync(join(ROOT, 'examples/scenarios/payouts.yaml'), 'utf8');
    expect(text).toContain('expect: { data.balance: 249000 }');
    writeFileSync(
      join(cli.dir, 'payouts-wrong.yaml'),
      text.replace('expect: { data.balance: 249000 }', 'expect: { data.balance: 198000 }'),
    );
    const bad = await cli.run(['scenario', 'run', 'payouts-wrong.yaml']);
    expect(bad.exitCode).toBe(1);
    const point = tapPoints(bad.stdout).get('Payouts - settled, and failed then reversed')!;
    expect(point.ok).toBe(false);
    // The reversal happened: the balance is the one before the failed payout.
    expect(point.diagnostics).toMatchObject({
      message: 'data.balance: expected 198000, got 249000',
      expected: 198000,
      actual: 249000,
      at: { file: 'payouts-wrong.yaml' },
    });
    expect(point.diagnostics.step).toMatch(/^a reversal of 51000 .*: wallets get \$\{ADA\}$/);
  });
});

describe('scenario run: failing', () => {
  it('fails a scenario for each matcher and step that does not hold, saying where, what was expected and what came', async () => {
    const run = await cli.run(['scenario', 'run', join(FIXTURES, 'each-fails.yaml'), '--reporter', 'tap']);
    expect(run.exitCode).toBe(1);
    const points = tapPoints(run.stdout);
    const expected: Record<string, RegExp> = {
      eq: /^data\.balance: expected 499999, got 500000$/,
      'eq on an object': /^data: expected \{"balance":500000\}, got \{"id":/,
      gt: /^data\.balance: expected more than 500000, got 500000$/,
      gte: /^data\.balance: expected at least 500001, got 500000$/,
      lt: /^data\.balance: expected less than 500000, got 500000$/,
      lte: /^data\.created_at: expected at most "2025-12-31", got "2026-01-01T00:00:00.000Z"$/,
      matches: /^data\.account_name: expected text matching \/\^ADA\/, got "SANDBOX \/ ADA OBI"$/,
      length: /^data\.items: expected length 2, got length 1$/,
      'length bounds': /^data\.items: expected length at least 2, got length 1$/,
      exists: /^data\.closed_at: expected a value, got null$/,
      'exists false': /^data\.account_number: expected no value, got "\d{10}"$/,
      one_of: /^data\.status: expected one of \["CLOSED","FROZEN"\], got "ACTIVE"$/,
      'contains in an array': /^data\.items: expected an array containing \{"type":"DEBIT"\}, got \[/,
      'contains in text': /^data\.account_name: expected text containing "BOLA", got "SANDBOX \/ ADA OBI"$/,
      status: /^status: expected 201, got 200$/,
      exit: /^exit: expected 1, got 0$/,
      'expect_error that succeeds':
        /^expected it to fail with INSUFFICIENT_FUNDS, but it exited 1: Error \[VALIDATION_ERROR\]/,
      'expect_error with another code': new RegExp(
        /^expected it to fail with INSUFFICIENT_FUNDS, but it exited 1: /.source +
          /Error \[NOT_FOUND\]: wallet not found: <wallet_id> "00000000-0000-0000-0000-000000000000" /.source +
          /is not one of your wallet ids \(`ledger wallets list` shows them\) \(request req_00000004\)$/.source,
      ),
      'a command that fails': /^exited 1: Error \[INSUFFICIENT_FUNDS\]/,
      'a request that fails': /^answered 409 DUPLICATE_CUSTOMER_REFERENCE: /,
      'save of a missing field': /^save NOPE: data\.nothing_here is not in the step's result$/,
      'expect_webhook that never comes':
        /^no transfer\.completed delivery with data\.transaction_id "[0-9a-f-]{36}" reached the built-in receiver after 5 scheduler passes \(0 other/,
      'expect_webhook whose match does not hold':
        /^no ledger\.credit delivery with data\.amount 1 reached the built-in receiver after 5 scheduler passes \(1 other ledger\.credit delivery\)$/,
    };
    expect([...points.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [name, message] of Object.entries(expected)) {
      const point = points.get(name)!;
      expect.soft(point.ok, name).toBe(false);
      expect.soft(point.diagnostics.message, name).toMatch(message);
      expect.soft(point.diagnostics.severity, name).toBe('fail');
      // Outside the working directory, a file is shown by its whole path.
      expect.soft(point.diagnostics.at.file, name).toBe(join(FIXTURES, 'each-fails.yaml'));
    }
    // The step's line, the expectation's line, the request and response, the command line.
    const eq = points.get('eq')!.diagnostics;
    expect(eq.at).toEqual({ file: eq.at.file, line: 9, column: 7 });
    expect(eq.details[0]).toBe('data.balance (line 10): expected 499999, got 500000');
    expect(eq.details).toContainEqual(expect.stringMatching(/^command: ledger wallets get [0-9a-f-]{36} \(exit 0\)$/));
    expect(eq.details).toContainEqual(expect.stringMatching(/^request: GET \/v1\/wallets\/[0-9a-f-]{36}$/));
    expect(eq.details).toContainEqual(
      expect.stringMatching(/^response: 200 \{"success":true,"data":\{.*"balance":500000/),
    );
    const object = points.get('eq on an object')!.diagnostics;
    expect(object.details).toContain('  + actual');
    expect(object.details).toContain('      "balance": 500000');
    expect(object.details).toContainEqual(expect.stringMatching(/^ {2}\+ {3}"customer_reference": "ada"$/));
    const request = points.get('a request that fails')!.diagnostics;
    expect(request.details).toContain(
      'request: POST /v1/wallets {"customer_reference":"ada","first_name":"Ada","last_name":"Obi","email":"ada@example.com"}',
    );
    expect(request.details).toContainEqual(expect.stringMatching(/^response: 409 .*DUPLICATE_CUSTOMER_REFERENCE/));
    expect(run.stdout).toMatch(/^# fail 23$/m);
  });

  it('writes JUnit for a run with one failure: that testcase has its failure and message, the XSD accepts it', async () => {
    writeFileSync(
      join(cli.dir, 'one-fails.yaml'),
      [
        'name: passes',
        'steps:',
        '  - GET /v1/banks',
        '---',
        'name: fails & <says> why',
        'steps:',
        '  - request: GET /v1/banks',
        '    expect: { status: 201 }',
        '',
      ].join('\n'),
    );
    const run = await cli.run(['scenario', 'run', 'one-fails.yaml', '--reporter', 'junit']);
    expect(run.exitCode).toBe(1);
    // On stderr too: a CI log whose stdout goes to a file still says what failed.
    expect(run.stderr).toBe(
      'Error [SCENARIO_FAILED]: 1 of 2 scenarios did not pass: one-fails.yaml:5 "fails & <says> why"\n',
    );
    await validJunit(run.stdout);
    expect(run.stdout).toMatch(
      /<testsuites name="ledger scenario run" tests="2" failures="1" errors="0" time="[\d.]+">/,
    );
    expect(run.stdout).toMatch(/<testsuite name="one-fails.yaml" tests="2" failures="1" errors="0" skipped="0" /);
    expect(run.stdout).toMatch(/<testcase name="passes" classname="one-fails.yaml" time="[\d.]+"\/>/);
    expect(run.stdout).toMatch(
      new RegExp(
        /<testcase name="fails &amp; &lt;says&gt; why" classname="one-fails.yaml" time="[\d.]+">\n {6}/.source +
          /<failure message="status: expected 201, got 200" type="expectation">/.source +
          /at one-fails.yaml:7:5, step GET \/v1\/banks\n/.source +
          /status \(line 8\): expected 201, got 200\nrequest: GET \/v1\/banks\nresponse: 200 /.source,
      ),
    );
  });

  it('gives identical TAP for the same file run twice with one seed (durations excepted)', async () => {
    const first = await cli.run([
      'scenario',
      'run',
      join(FIXTURES, 'each-fails.yaml'),
      join(ROOT, 'examples/scenarios/payouts.yaml'),
      '--seed',
      '42',
    ]);
    const second = await cli.run([
      'scenario',
      'run',
      join(FIXTURES, 'each-fails.yaml'),
      join(ROOT, 'examples/scenarios/payouts.yaml'),
      '--seed',
      '42',
    ]);
    expect(first.exitCode).toBe(1);
    expect(withoutDurations(second.stdout)).toBe(withoutDurations(first.stdout));
    expect(first.stdout).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/); // ids are in it: the seed made them the same
    // Another seed gives other ids.
    const other = await cli.run(['scenario', 'run', join(FIXTURES, 'each-fails.yaml'), '--seed', '43', '--bail']);
    expect(other.stdout.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0]).not.toBe(
      first.stdout.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0],
    );
    // Three whole scenario runs: 27–29 s on a shared 2-core machine (main's build as well), past the 30 s default.
  }, 90_000);

  it('with --bail stops at the first scenario that fails and reports the rest as skipped', async () => {
    const run = await cli.run([
      'scenario',
      'run',
      join(FIXTURES, 'each-fails.yaml'),
      join(ROOT, 'examples/scenarios/quickstart.yaml'),
      '--bail',
    ]);
    expect(run.exitCode).toBe(1);
    const points = tapPoints(run.stdout);
    expect(points.get('eq')?.ok).toBe(false);
    expect(points.get('gt')).toEqual({ ok: true, directive: 'SKIP --bail: eq did not pass', diagnostics: {} });
    expect(points.get('Quickstart - wallets, a credit, a transfer, a closed wallet and the audit')?.directive).toBe(
      'SKIP --bail: eq did not pass',
    );
    expect(run.stdout).toMatch(/^# pass 0\n# fail 1\n# skip 23$/m);
  });
});

describe('scenario run: malformed files (exit 2, nothing runs)', () => {
  const cases: [string, string, string][] = [
    ['bad YAML', 'name: x\nsteps:\n  - run: wallets list\n    expect: { exit: 0\n', 'bad.yaml:5:1: not YAML: '],
    [
      'an unknown step key',
      'name: x\nsteps:\n  - GET /v1/banks\n  - run: wallets list\n    expct: { exit: 0 }\n',
      'bad.yaml:5:5: unknown key "expct" in this step: besides one of run, request, advance, snapshot, expect_webhook, a step may have',
    ],
    [
      'an unknown matcher',
      'name: x\nsteps:\n  - request: GET /v1/banks\n    expect:\n      status: { equals: 200 }\n',
      'bad.yaml:5:17: unknown matcher "equals": the matchers are eq, gt, gte, lt, lte, matches, length, exists, one_of, contains',
    ],
    [
      'a step with no kind',
      'name: x\nsteps:\n  - GET /v1/banks\n  - frobnicate: 1\n',
      'bad.yaml:4:5: unknown step key "frobnicate": a step has one of run, request, advance, snapshot, expect_webhook',
    ],
    [
      'an unknown command',
      'name: x\nsteps:\n  - GET /v1/banks\n  - frobnicate ${X}\n',
      'bad.yaml:4:5: ${X} has no value here: define it under vars, or save it in an earlier step',
    ],
    [
      'a variable used before it is saved',
      'name: x\nsteps:\n  - run: wallets get ${ADA}\n  - run: wallets list\n    save: { ADA: data.items.0.id }\n',
      'bad.yaml:3:10: ${ADA} has no value here',
    ],
    [
      'a path inside { } with [ ]',
      'name: x\nsteps:\n  - run: wallets list\n    expect: { data.items[0].id: 1 }\n',
      'quote a path with [ ]: "data.items[0].id", or write data.items.0.id',
    ],
    ['not JSON', '{"name": "x", "steps": ["GET /v1/banks",]}', 'bad.json:1:43: not JSON: '],
  ];
  it.each(cases)('%s: says where, with its line and column', async (_, text, message) => {
    const file = message.startsWith('bad.json') ? 'bad.json' : 'bad.yaml';
    writeFileSync(join(cli.dir, file), text);
    const run = await cli.run(['scenario', 'run', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toMatch(/^Error \[INVALID_SCENARIO\]: bad\.(yaml|json):\d+:\d+: /);
  });

  const laughs = (levels: number) => [
    'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from(
      { length: levels },
      (_, i) =>
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
    ),
  ];
  it.each([
    [
      'a "billion laughs" (aliases of aliases)',
      `${laughs(8).join('\n')}\nname: x\nsteps: *i\n`,
      'bomb.yaml:6:8: the aliases stand for more than 100,000 values in all',
    ],
    [
      'an alias with no anchor before it',
      'name: x\nsteps:\n  - request: POST /v1/wallets\n    body: *wallet\n',
      'bomb.yaml:4:11: *wallet: no anchor &wallet before it in this document',
    ],
    [
      'an alias inside the value it names',
      'name: x\nsteps: &steps\n  - request: POST /v1/wallets\n    body: *steps\n',
      'bomb.yaml:4:11: *steps is inside &steps, the value it names',
    ],
  ])('%s is a malformed file, said at the alias', async (_, text, message) => {
    // Resolved as written, each runs out of memory or overflows the stack.
    writeFileSync(join(cli.dir, 'bomb.yaml'), text);
    const run = await cli.run(['scenario', 'run', 'bomb.yaml']);
    expect([run.exitCode, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(
      new RegExp(`^Error \\[INVALID_SCENARIO\\]: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    expect(run.stderr.split('\n')).toHaveLength(2);
  });

  // Parsed whole, these take 13 s of CPU (YAML) and 43 s (JSON): the timeout catches that without asserting a time.
  it(
    'refuses a deeply nested JSON (400 KB) or YAML (200 KB) where it passes 64 levels',
    { timeout: 10_000 },
    async () => {
      const json = `{"name": "x", "steps": [{"request": "POST /v1/wallets", "body": ${'{"a": ['.repeat(45_000)}1${']}'.repeat(45_000)}}]}`;
      const yaml = `name: x\nsteps:\n  - request: POST /v1/wallets\n    body: ${'[{a: '.repeat(40_000)}1${'}]'.repeat(40_000)}\n`;
      expect(json.length).toBeGreaterThan(400_000);
      expect(yaml.length).toBeGreaterThan(200_000);
      writeFileSync(join(cli.dir, 'deep.json'), json);
      writeFileSync(join(cli.dir, 'deep.yaml'), yaml);
      const run = await cli.run(['scenario', 'run', 'deep.json', 'deep.yaml']);
      expect([run.exitCode, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toBe(
        [
          'Error [INVALID_SCENARIO]: deep.json:1:281: nested deeper than 64 levels: a scenario file nests lists and maps at most 64 deep',
          'Error [INVALID_SCENARIO]: deep.yaml:4:162: nested deeper than 64 levels: a scenario file nests lists and maps at most 64 deep',
          '',
        ].join('\n'),
      );
    },
  );

  it('nesting in block style (indentation) is counted too, and a file at 64 levels is read', async () => {
    const nested = (levels: number) =>
      `name: x\nsteps:\n  - request: POST /v1/wallets\n    expect: { status: 400 }\n    body:\n` +
      `${Array.from({ length: levels }, (_, i) => `${' '.repeat(6 + 2 * i)}a:\n`).join('')}` +
      `${' '.repeat(6 + 2 * levels)}b: 1\n`;
    writeFileSync(join(cli.dir, 'block.yaml'), nested(300));
    const deep = await cli.run(['scenario', 'run', 'block.yaml']);
    expect([deep.exitCode, deep.stderr]).toEqual([
      2,
      'Error [INVALID_SCENARIO]: block.yaml:67:129: nested deeper than 64 levels: a scenario file nests lists and maps at most 64 deep\n',
    ]);
    // The scenario, steps, the step and its body are 4 levels; 60 more maps inside the body make 64.
    writeFileSync(join(cli.dir, 'block.yaml'), nested(60));
    const read = await cli.run(['scenario', 'run', 'block.yaml']);
    expect(read.stderr).toBe('');
    expect(read.exitCode).toBe(0);
  });

  it('reports every problem of every file before running any of them', async () => {
    writeFileSync(
      join(cli.dir, 'two.yaml'),
      'name: x\nsteps:\n  - run: wallets list\n    expct: 1\n  - advance: soon\n',
    );
    const run = await cli.run([
      'scenario',
      'run',
      join(ROOT, 'examples/scenarios/quickstart.yaml'),
      'two.yaml',
      'missing.yaml',
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('Error [USAGE]: missing.yaml: no such file or directory\n');
    const bad = await cli.run(['scenario', 'run', join(ROOT, 'examples/scenarios/quickstart.yaml'), 'two.yaml']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Error \[INVALID_SCENARIO\]: two\.yaml:4:5: unknown key "expct"/),
      'Error [INVALID_SCENARIO]: two.yaml:5:14: steps[1].advance: must be a duration like 2s, 5m, 1h or 1d',
    ]);
  });
});

describe('scenario run: where the sandbox is', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 9, log: () => {} });
  });
  afterAll(() => sandbox?.stop());

  it('--base-url runs the steps against a running sandbox, which keeps what they did', async () => {
    const run = await cli.run(
      ['scenario', 'run', join(ROOT, 'examples/scenarios/quickstart.yaml'), '--base-url', sandbox.baseUrl],
      { env: { LEDGER_API_KEY: sandbox.apiKey } },
    );
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const response = await fetch(`${sandbox.baseUrl}/sandbox/wallets`, { headers: { 'x-api-key': sandbox.apiKey } });
    const { data } = (await response.json()) as { data: { items: { customer_reference: string; balance: number }[] } };
    expect(data.items.map((w) => [w.customer_reference, w.balance])).toEqual([
      ['ada', 350000],
      ['bola', 150000],
    ]);
    expect((await sandbox.audit()).ok).toBe(true);
  });

  it('a symbolic link planted at --output during the run is replaced by the report, never written through', async () => {
    mkdirSync(join(cli.dir, 'planted'));
    const victim = join(cli.dir, 'planted/victim.txt');
    writeFileSync(victim, 'not a report\n');
    // Between the run's start (which removes what is at --output) and its report: when a step's request goes through.
    const proxy = createServer((incoming, answer) => {
      if (incoming.url === '/v1/banks') symlinkSync(victim, join(cli.dir, 'planted/report.xml'));
      const upstream = request(
        `${sandbox.baseUrl}${incoming.url}`,
        { method: incoming.method, headers: incoming.headers },
        (response) => {
          answer.writeHead(response.statusCode!, response.headers);
          response.pipe(answer);
        },
      );
      incoming.pipe(upstream);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      writeFileSync(
        join(cli.dir, 'banks.yaml'),
        'name: banks\nsteps:\n  - request: GET /v1/banks\n    expect: { status: 200 }\n',
      );
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const run = await cli.run(
        ['scenario', 'run', 'banks.yaml', '--base-url', url, '--output', 'planted/report.xml'],
        { env: { LEDGER_API_KEY: sandbox.apiKey } },
      );
      expect([run.exitCode, run.stderr]).toEqual([0, 'JUnit XML written to planted/report.xml\n']);
    } finally {
      proxy.close();
    }
    expect(readFileSync(victim, 'utf8')).toBe('not a report\n');
    expect(lstatSync(join(cli.dir, 'planted/report.xml')).isFile()).toBe(true);
    // A report is an ordinary file, as any the user writes: not made private like a snapshot.
    expect(statSync(join(cli.dir, 'planted/report.xml')).mode & 0o777).toBe(statSync(victim).mode & 0o777);
    await validJunit(readFileSync(join(cli.dir, 'planted/report.xml'), 'utf8'));
    expect(readdirSync(join(cli.dir, 'planted')).sort()).toEqual(['report.xml', 'victim.txt']);
  });

  it('a symbolic link already at --output is replaced by the report, whatever it points to (a file, a directory, nothing)', async () => {
    mkdirSync(join(cli.dir, 'links'));
    writeFileSync(join(cli.dir, 'links/victim.txt'), 'not a report\n');
    symlinkSync(join(cli.dir, 'links/victim.txt'), join(cli.dir, 'links/to-file.tap'));
    symlinkSync(join(cli.dir, 'links'), join(cli.dir, 'links/to-dir.tap'));
    symlinkSync(join(cli.dir, 'links/nothing'), join(cli.dir, 'links/dangling.tap'));
    writeFileSync(
      join(cli.dir, 'banks.yaml'),
      'name: banks\nsteps:\n  - request: GET /v1/banks\n    expect: { status: 200 }\n',
    );
    for (const link of ['to-file.tap', 'to-dir.tap', 'dangling.tap']) {
      const run = await cli.run(
        ['scenario', 'run', 'banks.yaml', '--base-url', sandbox.baseUrl, '--output', `links/${link}`],
        { env: { LEDGER_API_KEY: sandbox.apiKey } },
      );
      expect([link, run.exitCode, run.stderr]).toEqual([link, 0, `TAP written to links/${link}\n`]);
      expect(lstatSync(join(cli.dir, 'links', link)).isFile()).toBe(true);
      expect(readFileSync(join(cli.dir, 'links', link), 'utf8')).toMatch(/^TAP version 14\n/);
    }
    expect(readFileSync(join(cli.dir, 'links/victim.txt'), 'utf8')).toBe('not a report\n');
    expect(readdirSync(join(cli.dir, 'links')).sort()).toEqual([
      'dangling.tap',
      'to-dir.tap',
      'to-file.tap',
      'victim.txt',
    ]);
  });

  it('exits 3 when the sandbox of --base-url cannot be reached, before running anything', async () => {
    const port = await closedPort();
    const run = await cli.run([
      'scenario',
      'run',
      join(ROOT, 'examples/scenarios/quickstart.yaml'),
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--api-key',
      sandbox.apiKey,
    ]);
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Error \[UNREACHABLE\]: cannot reach the sandbox at http:\/\/127\.0\.0\.1:\d+/);
  });

  it('--snapshot starts every scenario from a saved state (by name or file)', async () => {
    writeFileSync(
      join(cli.dir, 'start.yaml'),
      'name: from the start state\nsteps:\n  - run: wallets list\n    expect: { data.total: 1, data.items.0.customer_reference: saved }\n',
    );
    // Build the state with a scenario against a running sandbox started here, saved under a name.
    const started = await cli.run(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--seed', '5', '--json']);
    expect(started.exitCode).toBe(0);
    try {
      expect(
        (
          await cli.run([
            'wallets',
            'create',
            '--customer-reference',
            'saved',
            '--first-name',
            'Sa',
            '--last-name',
            'Ved',
            '--email',
            's@example.com',
            '--quiet',
          ])
        ).exitCode,
      ).toBe(0);
      expect((await cli.run(['sandbox', 'snapshot', 'save', 'start'])).exitCode).toBe(0);
      expect((await cli.run(['sandbox', 'snapshot', 'save', '--file', 'start.db'])).exitCode).toBe(0);
    } finally {
      await cli.run(['sandbox', 'stop']);
    }
    for (const snapshot of ['start', './start.db']) {
      const run = await cli.run(['scenario', 'run', 'start.yaml', '--snapshot', snapshot]);
      expect(run.exitCode, `${snapshot}: ${run.stdout}`).toBe(0);
    }
    const fresh = await cli.run(['scenario', 'run', 'start.yaml']);
    expect(fresh.exitCode).toBe(1);
    expect(tapPoints(fresh.stdout).get('from the start state')?.diagnostics.message).toBe(
      'data.total: expected 1, got 0 (and 1 more)',
    );
    const missing = await cli.run(['scenario', 'run', 'start.yaml', '--snapshot', 'nothing']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^Error \[USAGE\]: --snapshot nothing: no snapshot of that name in /);
  });
});

describe('scenario init', () => {
  it('writes a commented example that passes as written, pointing editors at the schema', async () => {
    const init = await cli.run(['scenario', 'init', 'scenarios/first.yaml']);
    expect(init.exitCode).toBe(0);
    expect(init.stderr).toBe('Wrote scenarios/first.yaml: run it with `ledger scenario run scenarios/first.yaml`\n');
    const text = readFileSync(join(cli.dir, 'scenarios/first.yaml'), 'utf8');
    const schema = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)![1]!;
    expect(resolve(cli.dir, 'scenarios', schema)).toBe(join(ROOT, 'schema/scenario.schema.json'));
    expect(text.split('\n').filter((line) => line.trim().startsWith('#')).length).toBeGreaterThan(10);
    for (const kind of [
      'run:',
      'request:',
      'advance:',
      'snapshot:',
      'expect_webhook:',
      'expect_error:',
      'save:',
      'vars:',
    ])
      expect(text).toContain(kind);
    const run = await cli.run(['scenario', 'run', 'scenarios', '--reporter', 'pretty']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^1 scenario: 1 passed/m);
    const again = await cli.run(['scenario', 'init', 'scenarios/first.yaml']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe('Error [USAGE]: scenarios/first.yaml is already there: pass --force to replace it\n');
  });
});
