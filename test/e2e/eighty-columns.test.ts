import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/table.js';
import { execa } from 'execa';
import { BIN, type Cli, cleanEnv, closedPort, createCli, watchOutput, createWalletWithCli } from '../helpers/cli.js';
import { type Terminal, terminal } from '../helpers/terminal.js';

/**
 * Support staff at an 80-column terminal: what printed lines wider than the terminal (which it then
 * broke mid-word) or cut the text that was the point. The built binary against a seeded sandbox.
 */
let cli: Cli;
const narrow = { env: { COLUMNS: '80' } };
const open: Terminal[] = [];

/** Every line fits 80 columns. */
const fits = (text: string) => {
  const wide = text.split('\n').filter((line) => displayWidth(line) > 80);
  expect(wide).toEqual([]);
};
/** The words, whatever the lines: what was broken at spaces reads the same as what was not. */
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  cli = createCli();
  expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--seed', '7'])).exitCode).toBe(0);
});
afterAll(async () => {
  for (const term of open) await term.close();
  await cli.run(['sandbox', 'stop']);
  cli.cleanup();
});

describe('prose at 80 columns', () => {
  it('`sandbox magic` continues each value under itself within 80 columns, and --json is the API data', async () => {
    const r = await cli.run(['sandbox', 'magic'], narrow);
    expect(r.exitCode).toBe(0);
    fits(r.stdout);
    expect(r.stdout).toContain(
      '1111111111\n  name enquiry  SANDBOX FAILED PAYOUT\n' +
        '  payout        accepted PENDING, then FAILED after the settlement delay and\n' +
        '                reversed (amount + fee), event transfer.failed\n',
    );
    // Nothing lost: the wide output (a pipe without COLUMNS) is the same text on longer lines.
    const whole = await cli.run(['sandbox', 'magic']);
    expect(words(r.stdout)).toBe(words(whole.stdout));
    const json = await cli.run(['sandbox', 'magic', '--json'], narrow);
    expect(JSON.parse(json.stdout).items).toContainEqual({
      account_number: '1111111111',
      name_enquiry: 'SANDBOX FAILED PAYOUT',
      payout:
        'accepted PENDING, then FAILED after the settlement delay and reversed (amount + fee), event transfer.failed',
    });
  });

  it('breaks the `sandbox audit` summary at spaces', async () => {
    const r = await cli.run(['sandbox', 'audit'], narrow);
    expect(r.exitCode).toBe(0);
    fits(r.stdout);
    expect(r.stdout.split('\n').length).toBeGreaterThan(3);
    expect(words(r.stdout)).toBe(words((await cli.run(['sandbox', 'audit'])).stdout));
  });

  it('`webhooks show` gives the URL lines of its own', async () => {
    const ada = await createWalletWithCli(cli, 'webhook-url');
    const url = `http://127.0.0.1:${await closedPort()}/hooks/ledger/production-mirror/receiver/with/a/long/path?token=0123456789abcdefghijklmnopqrstuvwxyz`;
    expect((await cli.run(['webhooks', 'endpoint', 'set', url])).exitCode).toBe(0);
    try {
      await cli.run(['credit', ada, '1000', '--narration', 'salary']);
      await cli.run(['sandbox', 'clock', 'advance', '1s']);
      const log = (
        await cli.run(['webhooks', 'list', '--event-type', 'ledger.credit', '--desc', '--limit', '1', '-q'])
      ).stdout.trim();
      const r = await cli.run(['webhooks', 'show', log], narrow);
      expect(r.exitCode).toBe(0);
      fits(r.stdout);
      const attempt = r.stdout.slice(r.stdout.indexOf('Attempts (1)'));
      expect(attempt).toMatch(/^Attempts \(1\)\n {2}#1 \S+ → ECONNREFUSED in \d+ ms\n {5}http:\/\//);
      // The URL, broken where the terminal ends, is all there.
      expect(
        attempt
          .split('\n')
          .slice(2)
          .map((line) => line.trim())
          .join(''),
      ).toBe(url);
      const json = JSON.parse((await cli.run(['webhooks', 'show', log, '--json'], narrow)).stdout);
      expect(json.attempts[0].url).toBe(url);
    } finally {
      await cli.run(['webhooks', 'endpoint', 'reset']);
    }
  });
});

describe('a connection cut after the request went out, at an 80-column terminal', () => {
  // A stand-in that takes each request whole, then closes the connection without an answer.
  let server: Server;
  let cut: Record<string, string>;
  beforeAll(async () => {
    server = createServer((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cut = {
      LEDGER_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      LEDGER_API_KEY: 'svc_test_00000000000000000000000000000000',
    };
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('breaks the error at spaces, continued two columns in', async () => {
    // The terminal would break it mid-word.
    const id = '01a20c03-0be3-7bb4-9c12-8dee9f0c20a7';
    const term = await terminal(['transfer', id, '0123456785', '100'], { cwd: cli.dir, env: cut, columns: 80 });
    open.push(term);
    expect(await term.exitCode()).toBe(3);
    const lines = (await term.lines()).filter((line) => line.trim() !== '' && !line.startsWith('[exit'));
    fits(lines.join('\n'));
    expect(lines[0]).toMatch(/^Error \[UNREACHABLE\]: the sandbox at http:\/\/127\.0\.0\.1:\d+ closed the connection/);
    expect(lines.slice(1).every((line) => /^ {2}\S/.test(line))).toBe(true);
    // The same words as the one line a pipe gets.
    const piped = await cli.run(['transfer', id, '0123456785', '100'], { env: cut });
    expect(piped.stderr.split('\n').length).toBe(2);
    expect(words(lines.join('\n'))).toBe(words(piped.stderr));
  });
});

describe('sandbox start --detach at 80 columns', () => {
  it('its hint gives the export a line of its own that works pasted', async () => {
    // Ended by a full stop, the line would be copied with the stop in the path.
    const home = createCli();
    const elsewhere = createCli();
    try {
      const r = await home.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'], narrow);
      expect(r.exitCode, r.stderr).toBe(0);
      fits(r.stdout);
      const line = r.stdout.split('\n').find((l) => l.includes('export LEDGER_HOME'))!;
      expect(line).toBe(`  export LEDGER_HOME='${home.dir}/.ledger'`);
      // Pasted in a shell in another directory, it points the commands there at this sandbox.
      const pasted = await execa('bash', ['-c', `${line}\n"$0" "$1" wallets list --json`, process.execPath, BIN], {
        cwd: elsewhere.dir,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      });
      expect([pasted.exitCode, pasted.stderr]).toEqual([0, '']);
    } finally {
      await home.run(['sandbox', 'stop']);
      home.cleanup();
      elsewhere.cleanup();
    }
  });
});

describe('tables at 80 columns', () => {
  it('`sandbox receiver events` leaves out the webhook ids before it cuts the time, and the footer says so', async () => {
    // Events of the same instant have ids alike for their first 15 characters or so (UUIDv7).
    const ada = await createWalletWithCli(cli, 'receiver-ada');
    await cli.run(['credit', ada, '1000']);
    await cli.run(['credit', ada, '200000']);
    await cli.run(['transfer', ada, '1111111111', '1000', '--bank', '058', '--yes']);
    await cli.run(['sandbox', 'clock', 'advance', '2s']);
    const r = await cli.run(['sandbox', 'receiver', 'events', '--format', 'table'], narrow);
    fits(r.stdout);
    const rows = r.stdout.split('\n').filter((line) => line.startsWith('│ 2'));
    expect(rows.length).toBeGreaterThan(0);
    // Shortened to their last hex digits (the random part), the webhook ids now fit beside the whole time.
    for (const row of rows)
      expect(row).toMatch(/^│ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d │ [0-9a-f]{6,12} +│ [a-z.]+ +│ valid +│ 200 +│$/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('ids shortened to fit: --wide shows them whole');
  });
});

describe('webhooks tail at 80 columns', () => {
  it('each attempt fits its line: the time drops its date and the wallet goes', async () => {
    const ada = await createWalletWithCli(cli, 'tail-ada');
    const tail = execa(process.execPath, [BIN, 'webhooks', 'tail'], {
      cwd: cli.dir,
      env: cleanEnv({ COLUMNS: '80' }),
      extendEnv: false,
      reject: false,
    });
    const out = watchOutput(tail.stdout);
    await watchOutput(tail.stderr).waitFor(/Following/);
    await cli.run(['credit', ada, '123456789']);
    await cli.run(['sandbox', 'clock', 'advance', '1s']);
    const [line] = await out.waitFor(/.*HTTP 200\n/);
    tail.kill('SIGINT');
    await tail;
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d {2}ledger\.credit {7}123456789 \(₦1,234,567\.89\) {2}DELIVERED {2}#1 {2}HTTP 200\n$/,
    );
    fits(line!);
  });
});

describe('scenario run at 80 columns', () => {
  it('a failure prints the request and response bodies within 80 columns, and loses nothing', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${cli.dir}/failing.yaml`,
      [
        'name: a credit expected to be held, which is credited',
        'steps:',
        '  - run: wallets create --customer-reference s --first-name Ada --last-name Obi --email s@example.com',
        '    save: { W: data.id }',
        '  - run: credit ${W} 500000 --narration "Salary for May"',
        '    expect: { data.outcome: SUSPENDED }',
        '',
      ].join('\n'),
    );
    const r = await cli.run(['scenario', 'run', 'failing.yaml', '--reporter', 'pretty'], narrow);
    expect(r.exitCode).toBe(1);
    fits(r.stdout);
    expect(r.stdout).toContain('      data.outcome (line 6): expected "SUSPENDED", got "CREDITED"\n');
    expect(r.stdout).toMatch(/\n {6}response: 200 \{"success":true,\S+\n {8}\S/);
    const whole = await cli.run(['scenario', 'run', 'failing.yaml', '--reporter', 'pretty']);
    // Durations differ between the two runs ("312 ms", "2.7 ms", "1.5 s" on a busy machine).
    const letters = (text: string) => text.replace(/\d+(?:\.\d+)?\s*m?s\b/g, '').replace(/\s+/g, '');
    expect(letters(r.stdout)).toBe(letters(whole.stdout));
  });
});

describe('pickers at 80 columns', () => {
  it('the `suspense resolve` picker fits each held payment, and the answer, on one line, and finds them by typing', async () => {
    // A choice is cut with … and named by its customer, so the answer still reads after the question.
    const ada = await createWalletWithCli(cli, 'picker-ada');
    const other = await createWalletWithCli(cli, 'picker-other');
    const narration =
      'SANDBOX-LOW-CONFIDENCE part payment for the container of tomatoes from Kano market, balance later';
    expect((await cli.run(['credit', other, '5000', '--narration', 'SANDBOX-LOW-CONFIDENCE asdf'])).exitCode).toBe(0);
    expect(
      (
        await cli.run([
          'credit',
          ada,
          '7000000',
          '--narration',
          narration,
          '--sender-name',
          'Chukwuemeka Okonkwo-Adeyemi',
        ])
      ).exitCode,
    ).toBe(0);
    const term = await terminal(['suspense', 'resolve'], { cwd: cli.dir, columns: 80 });
    open.push(term);
    await term.waitFor(/Which held payment\?/);
    const choices = (await term.lines()).filter((line) => /^[❯ ] (Ada Obi)/.test(line));
    expect(choices).toHaveLength(2);
    expect(choices[1]).toMatch(
      /^ {2}Ada Obi {2}₦70,000\.00 +\d+[smhd] {2}AI_LOW_CONFIDENCE {2}"SANDBOX-LOW-CONFIDENCE part.*…$/,
    );
    for (const choice of choices) expect(displayWidth(choice)).toBeLessThanOrEqual(80);
    // Kano is past where the label is cut: typing finds the whole narration, and the sender's name.
    await term.type('kano chukwuemeka');
    await term.waitFor(/^❯ Ada Obi {2}₦70,000\.00/m);
    expect((await term.lines()).filter((line) => line.includes('₦50.00'))).toEqual([]);
    await term.keys('Enter');
    await term.waitFor(/What should happen to it\?/);
    const answered = (await term.lines()).find((line) => line.includes('Which held payment?'))!;
    expect(answered).toMatch(/^✔ Which held payment\? \(type to filter\) Ada Obi {2}₦70,000\.00 .*…$/);
    expect(displayWidth(answered)).toBeLessThanOrEqual(80);
    await term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
    expect((await cli.json(['suspense', 'list', '--status', 'PENDING'])).total).toBe(2);
  });
});

describe('answers to a picker', () => {
  it('a picked trigger stands after its question as its value alone', async () => {
    const ada = await createWalletWithCli(cli, 'answer-ada');
    const term = await terminal(['agents', 'create', ada, '--name', 'Sweep'], { cwd: cli.dir, columns: 80 });
    open.push(term);
    await term.waitFor(/Fire on…/);
    await term.keys('Enter');
    await term.waitFor(/And then…/);
    expect((await term.lines()).find((line) => line.includes('Fire on…'))).toBe('✔ Fire on… BALANCE_ABOVE');
    await term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
  });
});

describe('agents runs at 80 columns', () => {
  it('each run is a record with the whole Why and What it did, its transaction id whole', async () => {
    const ada = await createWalletWithCli(cli, 'runs-ada');
    const save = await createWalletWithCli(cli, 'runs-save');
    const agent = (
      await cli.run([
        'agents',
        'create',
        ada,
        '--name',
        'To savings',
        '--trigger',
        'BALANCE_ABOVE',
        '--threshold',
        '1000000',
        '--action',
        'SWEEP',
        '--destination',
        save,
        '-q',
      ])
    ).stdout.trim();
    await cli.run(['credit', ada, '1500000', '--narration', 'salary']);
    const [run] = (await cli.json(['agents', 'runs', agent])).items;

    const r = await cli.run(['agents', 'runs', agent, '--format', 'table'], narrow);
    expect(r.exitCode).toBe(0);
    fits(r.stdout);
    expect(r.stdout).toBe(
      [
        `${run.created_at.replace('T', ' ').replace(/\.\d+Z$/, '')}  DONE`,
        '  Why          balance crossed above 1000000 (₦10,000.00) (0 (₦0.00) → 1500000',
        '               (₦15,000.00))',
        '  What it did  moved 1500000 (₦15,000.00) to wallet',
        `               ${save}`,
        `  Transaction  ${run.transaction_id}`,
        '  Hop          0',
        '1–1 of 1 run · page 1',
        '',
      ].join('\n'),
    );
    // Where the table fits whole it is still a table.
    const wide = await cli.run(['agents', 'runs', agent, '--format', 'table'], { env: { COLUMNS: '250' } });
    expect(wide.stdout).toMatch(/^┌─/);
    expect(wide.stdout).toContain(`│ moved 1500000 (₦15,000.00) to wallet ${save} │`);
  });
});
