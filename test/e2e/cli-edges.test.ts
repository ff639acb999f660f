import { execa } from 'execa';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/table.js';
import { BIN, type Cli, cleanEnv, closedPort, createCli } from '../helpers/cli.js';

/** Pipes that close early, malformed flags, shell completion and a directory with no sandbox. */
let cli: Cli;
let wallet: string;
beforeAll(async () => {
  cli = createCli();
  expect((await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory'])).exitCode).toBe(0);
  wallet = (
    await cli.run([
      'wallets',
      'create',
      '--customer-reference',
      'edges',
      '--first-name',
      'E',
      '--last-name',
      'D',
      '--email',
      'e@d.ng',
      '-q',
    ])
  ).stdout.trim();
});
afterAll(async () => {
  await cli.run(['sandbox', 'stop']);
  cli.cleanup();
});

/** A pipeline through bash with pipefail, so the ledger side's own exit code counts. */
const pipeline = (line: string) =>
  execa('bash', ['-o', 'pipefail', '-c', line], {
    cwd: cli.dir,
    env: cleanEnv({ LEDGER: `${process.execPath} ${BIN}` }),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });

describe('a reader that stops early', () => {
  it('`ledger --help | head -1` and a --json list into a reader that closed exit 0 with nothing on stderr', async () => {
    const help = await pipeline('$LEDGER --help | head -1');
    expect([help.exitCode, help.stdout, help.stderr]).toEqual([0, 'Usage: ledger [options] [command]', '']);
    // `true` exits before anything is printed, so every write meets a closed pipe (EPIPE).
    for (const line of ['$LEDGER -V | true', '$LEDGER --help | true', '$LEDGER help wallets | true']) {
      const r = await pipeline(line);
      expect([line, r.exitCode, r.stderr]).toEqual([line, 0, '']);
    }
    const list = await pipeline('$LEDGER wallets list --json | true');
    expect([list.exitCode, list.stderr]).toEqual([0, '']);
    const table = await pipeline('$LEDGER transactions list "$0" | true'.replace('"$0"', wallet));
    expect([table.exitCode, table.stderr]).toEqual([0, '']);
  });

  it('`webhooks tail --json | head -2` ends quietly at the next delivery after the second', async () => {
    const tail = pipeline('$LEDGER webhooks tail --json 2>tail.err | head -2');
    let seen = '';
    for (let look = 0; look < 600 && !seen.includes('Following'); look++) {
      seen = await import('node:fs').then((fs) =>
        fs.existsSync(`${cli.dir}/tail.err`) ? fs.readFileSync(`${cli.dir}/tail.err`, 'utf8') : '',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const amount of ['101', '102', '103']) {
      await cli.run(['credit', wallet, amount]);
      await cli.json(['sandbox', 'clock', 'advance', '1s']);
    }
    const ended = await tail;
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout.split('\n').map((l) => JSON.parse(l).payload.data.amount)).toEqual([101, 102]);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(`${cli.dir}/tail.err`, 'utf8')).toBe('Following webhook delivery attempts; Ctrl-C to stop.\n');
  });
});

describe('tables at 80 columns', () => {
  it('every list fits, agent runs (about 200 columns wide in full) included; --json is the same whatever the width', async () => {
    const save = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'edges-save',
        '--first-name',
        'Savings',
        '--last-name',
        'Pot-With-A-Long-Name',
        '--email',
        's@p.ng',
        '-q',
      ])
    ).stdout.trim();
    const agent = (
      await cli.run([
        'agents',
        'create',
        wallet,
        '--name',
        'Sweep everything above ten thousand naira',
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
    await cli.run([
      'credit',
      wallet,
      '1500000',
      '--narration',
      'Salary for the month of November, Acme Logistics Limited, Ikeja',
    ]);
    const narrow = { COLUMNS: '80' };
    for (const args of [
      ['agents', 'runs', agent],
      ['agents', 'list'],
      ['transactions', 'list', wallet],
      ['wallets', 'list'],
      ['webhooks', 'list'],
      ['sandbox', 'receiver', 'events'],
      ['suspense', 'list'],
    ]) {
      const r = await cli.run([...args, '--format', 'table'], { env: narrow });
      expect(r.exitCode, args.join(' ')).toBe(0);
      for (const line of r.stdout.split('\n'))
        expect(displayWidth(line), `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
    }
    const wide = await cli.run(['agents', 'runs', agent, '--wide', '--format', 'table'], { env: narrow });
    expect(wide.stdout).toMatch(new RegExp(`moved 15\\d{5} \\(₦15,\\d{3}\\.\\d\\d\\) to wallet ${save}`));
    expect((await cli.run(['agents', 'runs', agent, '--json'], { env: narrow })).stdout).toBe(
      (await cli.run(['agents', 'runs', agent, '--json'])).stdout,
    );
  });
});

describe('malformed flags', () => {
  // Against a port where nothing listens: exit 2 (not 3) proves that nothing was sent.
  let offline: Record<string, string>;
  beforeAll(async () => {
    offline = {
      LEDGER_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      LEDGER_API_KEY: 'svc_test_00000000000000000000000000000000',
    };
  });
  const long = (n: number) => 'x'.repeat(n);
  it.each([
    [['credit', '0123456789', '0'], 'Error [USAGE]: <amount> must be at least 1 kobo'],
    [
      ['credit', '0123456789', '12.5'],
      'Error [USAGE]: <amount> "12.5" must be a whole number of kobo, digits only: ₦12.50 is 1250',
    ],
    [
      ['credit', '0123456789', '₦1,500.75'],
      'Error [USAGE]: <amount> "₦1,500.75" must be a whole number of kobo, digits only: ₦1,500.75 is 150075',
    ],
    [
      ['credit', '0123456789', '1,000'],
      'Error [USAGE]: <amount> "1,000" must be a whole number of kobo, digits only (500000 is ₦5,000.00)',
    ],
    [['credit', '0123456789', '007'], 'Error [USAGE]: <amount> "007" has a leading zero: write 7'],
    [['credit', '0123456789', '10000000000001'], 'Error [USAGE]: <amount> must be at most 10000000000000 kobo'],
    [
      ['credit', '0123456789', '100', '--narration', long(101)],
      'Error [USAGE]: --narration must be at most 100 characters',
    ],
    [
      ['credit', '0123456789', '100', '--sender-account', '12345'],
      'Error [USAGE]: --sender-account must be exactly 10 digits',
    ],
    [
      ['transfer', 'w', '0123456789', '-5'],
      'Error [USAGE]: <amount> "-5" must be a whole number of kobo, digits only (500000 is ₦5,000.00)',
    ],
    [
      ['transfer', 'w', '0123456789', '100', '--bank', 'GTB'],
      'Error [USAGE]: --bank must be a bank code of 3 to 6 digits: `ledger banks list --search GTB` shows the codes',
    ],
    [
      ['credit', '0123456789', '100', '--sender-bank-code', 'First Bank'],
      "Error [USAGE]: --sender-bank-code must be a bank code of 3 to 6 digits: `ledger banks list --search 'First Bank'` shows the codes",
    ],
    [
      ['transfer', 'w', '0123456789', '100', '--idempotency-key', long(256)],
      'Error [USAGE]: --idempotency-key must be 1 to 255 characters',
    ],
    [
      ['wallets', 'create', '--customer-reference', 'r', '--first-name', 'A', '--last-name', 'B', '--email', 'nope'],
      'Error [USAGE]: --email must be a valid email address',
    ],
    [
      ['wallets', 'create', '--customer-reference', '  ', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.ng'],
      'Error [USAGE]: --customer-reference must not be empty',
    ],
    [['wallets', 'list', '--limit', '1000'], 'Error [USAGE]: --limit must be at most 100'],
    [['wallets', 'list', '--page', '0'], 'Error [USAGE]: --page must be at least 1'],
    [['wallets', 'list', '--status', 'LOST'], 'Error [USAGE]: --status must be one of ACTIVE, CLOSED'],
    [
      ['suspense', 'list', '--reason', 'WHIM'],
      'Error [USAGE]: --reason must be one of WALLET_CLOSED, AI_LOW_CONFIDENCE, AI_RISK_FLAG',
    ],
    [
      ['suspense', 'resolve', 'item', '--action', 'DISMISS', '--target-wallet', 'w'],
      'Error [USAGE]: --target-wallet is only used with CREDIT_WALLET, not DISMISS',
    ],
    [
      ['suspense', 'resolve', 'item', '--action', 'dismiss', '--note', long(501)],
      'Error [USAGE]: --note must be at most 500 characters',
    ],
    [
      [
        'agents',
        'create',
        'w',
        '--name',
        'a',
        '--trigger',
        'BALANCE_ABOVE',
        '--threshold',
        '₦500',
        '--action',
        'LOCK_WALLET',
      ],
      'Error [USAGE]: --threshold "₦500" must be a whole number of kobo, digits only: ₦500.00 is 50000',
    ],
    [
      ['agents', 'create', 'w', '--name', 'a', '--trigger', 'ON_CREDIT', '--threshold', '5', '--action', 'LOCK_WALLET'],
      'Error [USAGE]: --threshold is not used by ON_CREDIT',
    ],
    [
      ['agents', 'create', 'w', '--name', 'a', '--trigger', 'ON_CREDIT', '--action', 'SWEEP'],
      'Error [USAGE]: missing --destination (no terminal to ask on)',
    ],
    [
      ['webhooks', 'list', '--event-type', 'ledger.refund'],
      'Error [USAGE]: --event-type must be one of ledger.credit, ledger.debit, transfer.completed, transfer.failed, ' +
        'suspense.created, suspense.resolved, agent.triggered, agent.failed, wallet.closed',
    ],
    [['webhooks', 'endpoint', 'set', 'ftp://example.com/hooks'], 'Error [USAGE]: <url> must be an http or https URL'],
    [['sandbox', 'receiver', 'fail', '--status', '99'], 'Error [USAGE]: --status must be 200 to 599'],
    [['sandbox', 'clock', 'advance', '3651d'], 'Error [USAGE]: <duration> must be at most ten years'],
    [['banks', 'resolve', '12345', '058'], 'Error [USAGE]: <account_number> must be exactly 10 digits'],
  ])('ledger %j → exit 2: %s', async (args, message) => {
    const r = await cli.run(args as string[], { env: offline });
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([2, message]);
  });

  it('the built command line checks against exactly the rules of the sandbox schemas', async () => {
    const { requestRules } = await import('../../src/api/rules.js');
    const { RULES } = await import(`${process.cwd()}/dist/client/rules.generated.js`);
    expect(RULES).toEqual(requestRules());
  });
});

describe('shell completion', () => {
  it('bash completes commands, flags and enum values from the command tree', async () => {
    const script = (await cli.run(['completion', 'bash'])).stdout;
    const complete = async (words: string[]) => {
      const line =
        `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
        `_ledger; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return (await execa('bash', ['--norc', '-c', line], { reject: false })).stdout.split('\n').filter(Boolean).sort();
    };
    expect(await complete(['ledger', 'wa'])).toEqual(['wallets']);
    expect(await complete(['ledger', 'wallets', ''])).toEqual(['close', 'create', 'get', 'list', 'unlock']);
    expect(await complete(['ledger', 'wallets', 'get', '--j'])).toEqual(['--json']);
    expect(await complete(['ledger', 'suspense', 'resolve', '--action', ''])).toEqual([
      'CREDIT_WALLET',
      'DISMISS',
      'REFUND',
    ]);
    expect(await complete(['ledger', 'agents', 'create', 'W', '--trigger', 'BAL'])).toEqual([
      'BALANCE_ABOVE',
      'BALANCE_BELOW',
    ]);
    expect(await complete(['ledger', 'webhooks', 'list', '--st'])).toEqual(['--status']);
    expect(await complete(['ledger', 'suspense', 'list', '--status', ''])).toEqual(['FLAGGED', 'PENDING', 'RESOLVED']);
  });

  it('zsh and fish scripts carry the same tree; an unknown shell is a usage error', async () => {
    const zsh = await cli.run(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef ledger\n/);
    expect(zsh.stdout).toContain('CREDIT_WALLET DISMISS REFUND');
    const fish = await cli.run(['completion', 'fish']);
    expect(fish.stdout).toContain(
      "complete -c ledger -n '__fish_seen_subcommand_from resolve' -l action -r -a 'CREDIT_WALLET DISMISS REFUND'",
    );
    const bad = await cli.run(['completion', 'powershell']);
    expect([bad.exitCode, bad.stderr]).toEqual([2, 'Error [USAGE]: shell must be one of bash, zsh, fish\n']);
  });

  it('-V and -v print the version', async () => {
    const { version } = JSON.parse(
      await import('node:fs').then((fs) => fs.readFileSync(`${process.cwd()}/package.json`, 'utf8')),
    );
    expect((await cli.run(['-V'])).stdout).toBe(`${version}\n`);
    expect((await cli.run(['-v'])).stdout).toBe(`${version}\n`);
  });
});

describe('a directory with no sandbox state', () => {
  it('says no sandbox state was found and how to start one or configure one (exit 3); a URL without a key is exit 2', async () => {
    const elsewhere = createCli();
    try {
      const r = await elsewhere.run(['wallets', 'list']);
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toBe(
        `Error [NO_SANDBOX]: no sandbox state found in ${elsewhere.dir} or a parent directory (.ledger/sandbox.json): ` +
          `start one with \`ledger sandbox start --detach\`, set LEDGER_HOME to the .ledger folder of a running one, ` +
          `or set LEDGER_BASE_URL and LEDGER_API_KEY\n`,
      );
      const env = await elsewhere.run(['sandbox', 'env']);
      expect(env.exitCode).toBe(3);
      const keyless = await elsewhere.run(['wallets', 'list'], { env: { LEDGER_BASE_URL: 'http://127.0.0.1:4010' } });
      expect([keyless.exitCode, keyless.stderr]).toEqual([
        2,
        'Error [USAGE]: no API key for http://127.0.0.1:4010: set LEDGER_API_KEY (or pass --api-key)\n',
      ]);
    } finally {
      elsewhere.cleanup();
    }
  });
});

describe('sandbox state left in a directory above', () => {
  it('is found by walking up, except above LEDGER_CEILING_DIRECTORIES: the tests set it, so a stray /tmp/.ledger is never theirs', async () => {
    const root = createCli();
    try {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const project = join(root.dir, 'project');
      mkdirSync(join(root.dir, '.ledger'), { recursive: true });
      mkdirSync(project);
      writeFileSync(
        join(root.dir, '.ledger', 'sandbox.json'),
        JSON.stringify({
          base_url: `http://127.0.0.1:${await closedPort()}`,
          api_key: 'svc_test_00000000000000000000000000000000',
          db: 'x',
        }),
      );
      const run = (ceiling: string) =>
        execa(process.execPath, [BIN, 'wallets', 'list'], {
          cwd: project,
          env: cleanEnv({ LEDGER_CEILING_DIRECTORIES: ceiling }),
          extendEnv: false,
          reject: false,
        });
      // Found above: the stray state is used (nothing listens at its URL).
      const walked = await run('');
      expect([walked.exitCode, walked.stderr]).toEqual([
        3,
        expect.stringMatching(/^Error \[UNREACHABLE\]: cannot reach the sandbox at http:\/\/127\.0\.0\.1:\d+ /),
      ]);
      // Not above a ceiling (any of a list; a relative entry is ignored, as git ignores one).
      for (const ceiling of [root.dir, `relative:${root.dir}`, `/nowhere:${root.dir}/`]) {
        const stopped = await run(ceiling);
        expect([ceiling, stopped.exitCode, stopped.stderr]).toEqual([
          ceiling,
          3,
          expect.stringMatching(/^Error \[NO_SANDBOX\]: no sandbox state found in /),
        ]);
      }
    } finally {
      root.cleanup();
    }
  });
});

describe('a sandbox that stops between the request and its answer', () => {
  // A stand-in that takes each request whole, then closes the connection: at once, or after the
  // head and part of the body of a 200. What it took is kept, to show the request went out.
  const taken: { method: string; key: string | undefined }[] = [];
  let server: import('node:http').Server;
  let cut: Record<string, string>;
  const SANDBOX_PATHS = Object.fromEntries(
    [
      '/sandbox/health',
      '/sandbox/inbound-transfers',
      '/sandbox/keys/rotate',
      '/sandbox/developers',
      '/sandbox/reset',
      '/sandbox/snapshots/{name}/restore',
      '/sandbox/snapshots/restore',
    ].map((path) => [path, { get: {}, post: {} }]),
  );
  beforeAll(async () => {
    const { createServer } = await import('node:http');
    server = createServer((req, res) => {
      req.resume();
      // It is a sandbox by its /openapi.json (a command of the sandbox asks first, without its key), and cuts everything else off.
      if (req.url === '/openapi.json')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ openapi: '3.1.0', paths: SANDBOX_PATHS }));
      req.on('end', () => {
        taken.push({ method: req.method!, key: req.headers['idempotency-key'] as string | undefined });
        if (req.headers['idempotency-key'] === 'half') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
          res.write('{"success":true,');
          setImmediate(() => res.socket!.destroy());
        } else req.socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cut = {
      LEDGER_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      LEDGER_API_KEY: 'svc_test_00000000000000000000000000000000',
    };
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const id = '01a20c03-0be3-7bb4-9c12-8dee9f0c20a7';
  const sent = (url: string) =>
    `Error [UNREACHABLE]: the sandbox at ${url} closed the connection before it answered (ECONNRESET): the request was sent and may have been carried out; `;
  it('says a transfer may have been made, and how to repeat it without moving the money twice', async () => {
    const plain = await cli.run(['transfer', id, '0123456785', '100'], { env: cut });
    expect([plain.exitCode, plain.stdout, plain.stderr]).toEqual([
      3,
      '',
      `${sent(cut.LEDGER_BASE_URL!)}look before you repeat it (\`ledger transactions list <wallet>\` shows the money that moved); ` +
        `a transfer repeated with --idempotency-key is never made twice\n`,
    ]);
    for (const key of ['rent-may', 'half']) {
      const keyed = await cli.run(['transfer', id, '0123456785', '100', '--idempotency-key', key, '--json'], {
        env: cut,
      });
      expect([key, keyed.exitCode, keyed.stdout, keyed.stderr]).toEqual([
        key,
        3,
        '',
        `${sent(cut.LEDGER_BASE_URL!)}repeat it with the same --idempotency-key: the sandbox then answers it again without doing it twice\n`,
      ]);
    }
    expect(taken.filter((t) => t.method === 'POST').map((t) => t.key)).toEqual([undefined, 'rent-may', 'half']);
  });

  it('says a credit may have been made, and that the same --reference makes a repeat safe', async () => {
    const plain = await cli.run(['credit', '0123456785', '100'], { env: cut });
    expect([plain.exitCode, plain.stdout, plain.stderr]).toEqual([
      3,
      '',
      `${sent(cut.LEDGER_BASE_URL!)}look before you repeat it (\`ledger transactions list <wallet>\` shows the money that moved); ` +
        `a credit repeated with the same --reference is never made twice\n`,
    ]);
    const keyed = await cli.run(['credit', '0123456785', '100', '--reference', '000015261124120000123456789012'], {
      env: cut,
    });
    expect([keyed.exitCode, keyed.stderr]).toEqual([
      3,
      `${sent(cut.LEDGER_BASE_URL!)}repeat it with the same --reference: the sandbox then answers it as a replay without crediting twice\n`,
    ]);
  });

  it('says another write may have been made, without talking of money', async () => {
    const made = await cli.run(
      [
        'wallets',
        'create',
        '--customer-reference',
        'c1',
        '--first-name',
        'Ada',
        '--last-name',
        'Obi',
        '--email',
        'ada@example.com',
      ],
      { env: cut },
    );
    expect([made.exitCode, made.stderr]).toEqual([
      3,
      `${sent(cut.LEDGER_BASE_URL!)}look before you repeat it (its \`get\` or \`list\` command shows whether it was made)\n`,
    ]);
  });

  it('says a key rotation may have happened, and how to get a working key back', async () => {
    const rotated = await cli.run(['sandbox', 'keys', 'rotate'], { env: cut });
    expect([rotated.exitCode, rotated.stdout, rotated.stderr]).toEqual([
      3,
      '',
      `${sent(cut.LEDGER_BASE_URL!)}if \`ledger sandbox keys\` now answers UNAUTHORIZED, the key was rotated and the new one was lost with the answer: ` +
        `\`ledger sandbox stop\`, then \`ledger sandbox start --detach\`, issues the SANDBOX developer a new key\n`,
    ]);
  });

  it('says a developer may have been made whose key is lost, and that a repeat makes another', async () => {
    const made = await cli.run(['sandbox', 'developers', 'create', 'Acme Pay'], { env: cut });
    expect([made.exitCode, made.stdout, made.stderr]).toEqual([
      3,
      '',
      `${sent(cut.LEDGER_BASE_URL!)}if it made the developer, its key was in the answer that was lost, ` +
        `and the sandbox never shows a key again: repeat it to make another\n`,
    ]);
  });

  it('says a reset or a restore may have run, and that a repeat does no harm', async () => {
    const reset = await cli.run(['sandbox', 'reset', '--yes'], { env: cut });
    expect([reset.exitCode, reset.stdout, reset.stderr]).toEqual([
      3,
      '',
      `${sent(cut.LEDGER_BASE_URL!)}a reset repeated does no harm (it removes whatever your sandbox holds when it runs): ` +
        `\`ledger wallets list\` shows whether the first one did\n`,
    ]);
    const restored = await cli.run(['sandbox', 'snapshot', 'restore', 'base', '--yes'], { env: cut });
    expect([restored.exitCode, restored.stdout, restored.stderr]).toEqual([
      3,
      '',
      `${sent(cut.LEDGER_BASE_URL!)}a restore repeated does no harm (it puts the snapshot in place whole, whatever your sandbox holds then): ` +
        `repeat it if unsure\n`,
    ]);
  });

  it('asks whether it still runs when a read is cut off: a read is safe to ask again', async () => {
    const read = await cli.run(['wallets', 'get', id], { env: cut });
    expect([read.exitCode, read.stderr]).toEqual([
      3,
      `Error [UNREACHABLE]: the sandbox at ${cut.LEDGER_BASE_URL} closed the connection before it answered (ECONNRESET): ` +
        `is it still running? (\`ledger sandbox status\`)\n`,
    ]);
  });
});
