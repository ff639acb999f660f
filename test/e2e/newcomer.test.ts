import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/registry.js';
import { displayWidth } from '../../src/cli/output/table.js';
import { type Cli, createCli, useSandboxCli } from '../helpers/cli.js';
import { refusalLine } from '../helpers/io.js';

/**
 * What a developer new to the tool tripped on, following the README and the `--help` examples
 * (the built binary through execa, against a real sandbox on a loopback port).
 */

describe('starting a second sandbox', () => {
  it('each failed start in a directory reports its own error, not one an earlier start left', async () => {
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
      // With the value that always works, not only "pick another with --port".
      expect(portTaken.stderr).toBe(
        `Error [PORT_IN_USE]: port ${port} on 127.0.0.1 is in use: pick another with --port (--port 0 takes a free one)\n`,
      );

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

describe('sandbox env after sandbox stop', () => {
  it('for a stopped sandbox a note says it is not running and how to start it', async () => {
    // `eval` of the exports alone, then `curl -s`, would print nothing at all.
    const cli = createCli();
    try {
      expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
      const running = await cli.run(['sandbox', 'env']);
      expect([running.exitCode, running.stderr]).toEqual([0, '']);
      await cli.run(['sandbox', 'stop']);
      const stopped = await cli.run(['sandbox', 'env']);
      expect(stopped.exitCode).toBe(0);
      expect(stopped.stdout).toBe(running.stdout);
      expect(stopped.stderr).toBe(
        'Note: the sandbox started here is not running; these are its URL and key for when it is (`ledger sandbox start --detach` starts it again).\n',
      );
      expect((await cli.run(['sandbox', 'env', '--json'])).stderr).toBe('');
    } finally {
      await cli.run(['sandbox', 'stop']);
      cli.cleanup();
    }
  });
});

describe('a second terminal in another directory', () => {
  it('`sandbox status` there says why the other commands will fail, and `sandbox stop` that none was started here', async () => {
    const home = createCli();
    const elsewhere = createCli();
    try {
      const started = await home.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json']);
      expect(started.exitCode, started.stderr).toBe(0);
      const { base_url: url } = JSON.parse(started.stdout) as { base_url: string };
      const status = await elsewhere.run(['sandbox', 'status'], { env: { LEDGER_BASE_URL: url } });
      expect(status.exitCode).toBe(0);
      expect(status.stdout).toMatch(new RegExp(`^running ${url}\n`));
      expect(status.stderr).toBe(
        'Note: not started from this directory (no .ledger/sandbox.json here or above),\n' +
          'and no API key is set: to use it from here, set LEDGER_HOME to the .ledger\n' +
          'folder of the directory it was started from, or set LEDGER_API_KEY.\n',
      );
      const listed = await elsewhere.run(['wallets', 'list'], { env: { LEDGER_HOME: join(home.dir, '.ledger') } });
      expect(listed.exitCode, listed.stderr).toBe(0);
      const stop = await elsewhere.run(['sandbox', 'stop']);
      expect([stop.exitCode, stop.stderr]).toEqual([
        0,
        'No sandbox was started from this directory (no .ledger/ here or above): nothing to stop.\n',
      ]);
      // Where it was started: no note, and it still runs.
      const own = await home.run(['sandbox', 'status']);
      expect([own.exitCode, own.stderr]).toEqual([0, '']);
    } finally {
      await home.run(['sandbox', 'stop']);
      home.cleanup();
      elsewhere.cleanup();
    }
  });
});

describe('without a sandbox', () => {
  it('`ledger --json wallets list` says options go after the command, with the line as it should read', async () => {
    const cli = createCli();
    try {
      for (const [args, fixed] of [
        [['--json', 'wallets', 'list'], 'ledger wallets list --json'],
        [
          ['-q', '--base-url', 'http://127.0.0.1:4010', 'transactions', 'list', 'a b'],
          "ledger transactions list 'a b' -q --base-url http://127.0.0.1:4010",
        ],
      ] as const) {
        const r = await cli.run([...args]);
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([
          2,
          '',
          `Error [USAGE]: options go after the command's name: ${fixed}\n`,
        ]);
      }
      // An unknown option with no command after it is still commander's refusal; help and version still answer.
      expect((await cli.run(['--foo'])).stderr).toBe(
        "Error [USAGE]: unknown option '--foo'\n(add --help for usage and examples)\n",
      );
      expect((await cli.run(['--version'])).exitCode).toBe(0);
    } finally {
      cli.cleanup();
    }
  });

  it('`ledger` or `ledger wallets` alone exits 2 (usage), and --help still exits 0 on stdout', async () => {
    // A script running `ledger $EMPTY` must stop there.
    const cli = createCli();
    try {
      for (const args of [[], ['wallets'], ['sandbox', 'snapshot']]) {
        const r = await cli.run(args);
        expect([r.exitCode, r.stdout], args.join(' ')).toEqual([2, '']);
        expect(r.stderr).toMatch(/^Usage: ledger .*\[command\]\n/);
        expect(r.stderr).toContain('Commands:\n');
      }
      for (const args of [['--help'], ['wallets', '--help'], ['help', 'wallets']]) {
        const r = await cli.run(args);
        expect([r.exitCode, r.stderr], args.join(' ')).toEqual([0, '']);
        expect(r.stdout).toMatch(/^Usage: ledger /);
      }
    } finally {
      cli.cleanup();
    }
  });

  it('every line of every --help fits 80 columns, but an example', async () => {
    const cli = createCli();
    try {
      const paths = ['', ...COMMANDS.map((c) => c.path)];
      expect(paths.length).toBeGreaterThan(40);
      // Four at a time: some 70 starts of the binary, one after another, took 18 s on a busy machine.
      for (let i = 0; i < paths.length; i += 4) {
        const batch = paths.slice(i, i + 4);
        const runs = await Promise.all(
          batch.map((path) => cli.run([...(path ? path.split(' ') : []), '--help'], { env: { COLUMNS: '80' } })),
        );
        batch.forEach((path, j) => {
          const r = runs[j]!;
          expect(r.exitCode, path).toBe(0);
          for (const line of r.stdout.split('\n').filter((l) => !l.startsWith('  $ ')))
            expect(displayWidth(line), `ledger ${path} --help: ${line}`).toBeLessThanOrEqual(80);
        });
      }
    } finally {
      cli.cleanup();
    }
  });
});

describe('with a sandbox', () => {
  const cli = useSandboxCli();
  let ada = '';
  let bola = '';
  beforeAll(async () => {
    ada = (
      await cli.json([
        'wallets',
        'create',
        '--customer-reference',
        'nc-ada',
        '--first-name',
        'Ada',
        '--last-name',
        'Obi',
        '--email',
        'ada@example.com',
      ])
    ).id;
    bola = (
      await cli.json([
        'wallets',
        'create',
        '--customer-reference',
        'nc-bola',
        '--first-name',
        'Bola',
        '--last-name',
        'Ade',
        '--email',
        'bola@example.com',
      ])
    ).id;
  });

  it('a wallet id pasted with a trailing space or in quotes is the id it names', async () => {
    for (const pasted of [`${ada} `, ` ${ada}\n`, `"${ada}"`, `'${ada}'`, `“${ada}”`]) {
      const got = await cli.run(['wallets', 'get', pasted, '--json']);
      expect(got.exitCode, `${JSON.stringify(pasted)}: ${got.stderr}`).toBe(0);
      expect(JSON.parse(got.stdout).id).toBe(ada);
    }
    const credited = await cli.run(['credit', `${ada} `, '500000', '--json']);
    expect(credited.exitCode, credited.stderr).toBe(0);
    // Arguments and id flags alike, on the fast parser and on commander's (`-wq` goes to commander).
    const moved = await cli.run(['transfer', `"${ada}"`, `${bola} `, '150000', '--json']);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect((await cli.json(['wallets', 'get', bola])).balance).toBe(150000);
    const listed = await cli.run(['transactions', 'list', ` ${ada} `, '-wq']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
    const agents = await cli.run(['agents', 'list', '--wallet', `${ada} `, '--json']);
    expect(agents.exitCode, agents.stderr).toBe(0);
    // An id that names nothing is still the API's NOT_FOUND.
    const unknown = await cli.run(['wallets', 'get', `"01a20c05-0000-7000-8000-000000000000" `]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toEqual(
      refusalLine(
        'Error [NOT_FOUND]: wallet not found: <wallet_id> "01a20c05-0000-7000-8000-000000000000" ' +
          'is not one of your wallet ids (`ledger wallets list` shows them)\n',
      ),
    );
    // Nothing left (an unset variable in quotes): a usage error, nothing sent.
    expect(await cli.run(['wallets', 'get', ' '])).toMatchObject({
      exitCode: 2,
      stderr: 'Error [USAGE]: <wallet_id> is empty (" ")\n',
    });
  });

  it('an id cut to fit a table (01a20c05-55…) is a usage error that says how to get it whole', async () => {
    const cut = `${ada.slice(0, 11)}…`;
    const got = await cli.run(['transactions', 'list', cut]);
    expect(got.exitCode).toBe(2);
    expect(got.stdout).toBe('');
    expect(got.stderr).toBe(
      `Error [USAGE]: <wallet_id> "${cut}" is an id shortened to fit a table: \`--wide\` shows ids whole, \`--quiet\` prints only them\n`,
    );
    const flag = await cli.run([
      'agents',
      'create',
      ada,
      '--trigger',
      'BALANCE_ABOVE',
      '--threshold',
      '100',
      '--action',
      'SWEEP',
      '--destination',
      `${bola.slice(0, 11)}...`,
    ]);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('Error [USAGE]: --destination "');
    expect((await cli.json(['agents', 'list'])).items).toEqual([]);
  });

  it('`agents runs` at 80 columns names the columns it left out, and says when ids are cut too', async () => {
    const save = (
      await cli.json([
        'wallets',
        'create',
        '--customer-reference',
        'nc-save',
        '--first-name',
        'Ada',
        '--last-name',
        'Savings',
        '--email',
        'ada.s@example.com',
      ])
    ).id;
    const agent = (
      await cli.json([
        'agents',
        'create',
        bola,
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
      ])
    ).id;
    expect((await cli.run(['credit', bola, '900000'])).exitCode).toBe(0);
    const narrow = await cli.run(['agents', 'runs', agent, '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(narrow.exitCode, narrow.stderr).toBe(0);
    // Since p7: a run that does not fit as a table row is a record, nothing cut or left out.
    const lines = narrow.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}DONE$/);
    expect(lines.some((line) => /^ {2}Transaction {2}[0-9a-f-]{36}$/.test(line))).toBe(true);
    expect(narrow.stdout).not.toContain('to fit');
    const wide = await cli.run(['agents', 'runs', agent, '--wide', '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(wide.stdout).toContain('│ Transaction ');
    expect(wide.stdout).not.toContain('to fit');
    // Ids cut and columns left out: both said.
    const transactions = await cli.run(['transactions', 'list', bola, '--format', 'table'], { env: { COLUMNS: '80' } });
    expect(transactions.stdout.trimEnd().split('\n').at(-1)).toBe(
      'ids shortened, columns left out to fit: --wide shows all',
    );
  });

  it('an amount written in naira (N500, ₦5,000, NGN 500) is refused with the kobo it means, and nothing moves', async () => {
    const before = (await cli.json(['wallets', 'get', ada])).balance;
    for (const [written, meant] of [
      ['N500', '₦500.00 is 50000'],
      ['₦5,000', '₦5,000.00 is 500000'],
      ['NGN 500', '₦500.00 is 50000'],
      ['n1,500.75', '₦1,500.75 is 150075'],
    ]) {
      const r = await cli.run(['credit', ada, written!]);
      expect([r.exitCode, r.stdout, r.stderr]).toEqual([
        2,
        '',
        `Error [USAGE]: <amount> "${written}" must be a whole number of kobo, digits only: ${meant}\n`,
      ]);
    }
    const transfer = await cli.run(['transfer', ada, bola, 'N1,000']);
    expect([transfer.exitCode, transfer.stderr]).toEqual([
      2,
      'Error [USAGE]: <amount> "N1,000" must be a whole number of kobo, digits only: ₦1,000.00 is 100000\n',
    ]);
    // Without a naira mark a comma stays ambiguous (kobo or naira?): the rule, with an example.
    expect((await cli.run(['credit', ada, '1,000'])).stderr).toBe(
      'Error [USAGE]: <amount> "1,000" must be a whole number of kobo, digits only (500000 is ₦5,000.00)\n',
    );
    expect((await cli.json(['wallets', 'get', ada])).balance).toBe(before);
  });
});
