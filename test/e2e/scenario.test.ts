import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cli, closedPort, createCli, stable } from '../helpers/cli.js';
import { refusalLine } from '../helpers/io.js';

/**
 * The scenario through the built binary: start --detach, two wallets, a credit, a
 * transfer, the transaction list, a close, a credit to the closed wallet, the audit, stop.
 */
let cli: Cli;
let baseUrl: string;
let apiKey: string;

beforeAll(async () => {
  cli = createCli();
  const started = await cli.run(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json']);
  expect(started.stderr).toBe('');
  expect(started.exitCode).toBe(0);
  const details = JSON.parse(started.stdout);
  baseUrl = details.base_url;
  apiKey = details.api_key;
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(apiKey).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
});

afterAll(async () => {
  await cli.run(['sandbox', 'stop']);
  cli.cleanup();
});

describe('a developer scripting the sandbox', () => {
  it('runs the whole scenario with exact balances and a clean audit', async () => {
    const a = await cli.run([
      'wallets',
      'create',
      '--customer-reference',
      'ada',
      '--first-name',
      'Ada',
      '--last-name',
      'Obi',
      '--email',
      'ada@example.com',
      '--quiet',
    ]);
    const b = await cli.run([
      'wallets',
      'create',
      '--customer-reference',
      'bola',
      '--first-name',
      'Bola',
      '--last-name',
      'Ade',
      '--email',
      'bola@example.com',
      '--quiet',
    ]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    const walletA = a.stdout.trim();
    const walletB = b.stdout.trim();
    expect(walletA).toMatch(/^[0-9a-f-]{36}$/);

    const credit = await cli.run(['credit', walletA, '500000', '--narration', 'rent for May', '--json']);
    expect(credit.exitCode).toBe(0);
    const outcome = JSON.parse(credit.stdout);
    expect(outcome.outcome).toBe('CREDITED');
    expect(outcome.transaction).toMatchObject({
      amount: 500_000,
      balance_after: 500_000,
      raw_narration: 'rent for May',
    });

    const transfer = await cli.run(['transfer', walletA, walletB, '150000', '--json']);
    expect(transfer.exitCode).toBe(0);
    expect(stable(transfer.stdout)).toBe(
      JSON.stringify(
        {
          status: 'SUCCESS',
          transaction_id: '<id>',
          provider_reference: '<reference>',
          new_balance: 350000,
          currency: 'NGN',
          fee: 0,
        },
        null,
        2,
      ) + '\n',
    );

    const list = await cli.run(['transactions', 'list', walletA, '--json']);
    const page = JSON.parse(list.stdout);
    expect(
      page.items.map((t: { type: string; amount: number; balance_after: number }) => [
        t.type,
        t.amount,
        t.balance_after,
      ]),
    ).toEqual([
      ['CREDIT', 500_000, 500_000],
      ['DEBIT', 150_000, 350_000],
    ]);
    expect([page.total, page.page, page.limit]).toEqual([2, 1, 20]);

    const table = await cli.run(['transactions', 'list', walletA, '--format', 'table']);
    expect(stable(table.stdout)).toContain('CREDIT │ 500000 (₦5,000.00)');
    expect(stable(table.stdout)).toContain('1–2 of 2 transactions · page 1');

    const closed = await cli.run(['wallets', 'close', walletB, '--json']);
    expect(JSON.parse(closed.stdout)).toMatchObject({ status: 'CLOSED', balance: 150_000 });

    const held = await cli.run(['credit', walletB, '2500', '--json']);
    expect(JSON.parse(held.stdout)).toMatchObject({
      outcome: 'SUSPENDED',
      suspense_item: { reason: 'WALLET_CLOSED', status: 'PENDING', amount: 2500 },
    });

    const b2 = await cli.run(['wallets', 'get', walletB, '--json']);
    expect(JSON.parse(b2.stdout).balance).toBe(150_000);

    const audit = await cli.run(['sandbox', 'audit']);
    expect(audit.exitCode).toBe(0);
    expect(stable(audit.stdout)).toMatch(
      /^Audit clean: every invariant holds\.\nChecked 6 accounts, 2 wallets, 3 postings, 6 entries, 3 transactions, /,
    );
  });

  it('reports refusals on stderr with a code and exit 1, usage errors with exit 2', async () => {
    const a = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'c1',
        '--first-name',
        'C',
        '--last-name',
        'D',
        '--email',
        'c@example.com',
        '-q',
      ])
    ).stdout.trim();
    const b = (
      await cli.run([
        'wallets',
        'create',
        '--customer-reference',
        'c2',
        '--first-name',
        'E',
        '--last-name',
        'F',
        '--email',
        'e@example.com',
        '-q',
      ])
    ).stdout.trim();
    const poor = await cli.run(['transfer', a, b, '100']);
    expect([poor.exitCode, poor.stdout, poor.stderr]).toEqual([
      1,
      '',
      refusalLine(
        "Error [INSUFFICIENT_FUNDS]: insufficient funds: the wallet's balance is 0 kobo, and this needs 100 kobo\n",
      ),
    ]);

    const dup = await cli.run([
      'wallets',
      'create',
      '--customer-reference',
      'c1',
      '--first-name',
      'C',
      '--last-name',
      'D',
      '--email',
      'c@example.com',
    ]);
    expect(dup.exitCode).toBe(1);
    expect(dup.stderr).toMatch(/^Error \[DUPLICATE_CUSTOMER_REFERENCE\]: /);

    const badEmail = await cli.run([
      'wallets',
      'create',
      '--customer-reference',
      'c3',
      '--first-name',
      'C',
      '--last-name',
      'D',
      '--email',
      'nope',
    ]);
    expect([badEmail.exitCode, badEmail.stderr]).toEqual([2, 'Error [USAGE]: --email must be a valid email address\n']);

    const amount = await cli.run(['transfer', a, b, '12.50']);
    expect([amount.exitCode, amount.stderr]).toEqual([
      2,
      'Error [USAGE]: <amount> "12.50" must be a whole number of kobo, digits only: ₦12.50 is 1250\n',
    ]);

    const missing = await cli.run(['wallets', 'create', '--first-name', 'Ada']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      2,
      'Error [USAGE]: missing --customer-reference, --last-name and --email (no terminal to ask on)\n',
    ]);

    const unknownFlag = await cli.run(['wallets', 'list', '--colour']);
    expect(unknownFlag.exitCode).toBe(2);
    expect(unknownFlag.stderr).toContain("Error [USAGE]: unknown option '--colour'");

    const notFound = await cli.run(['wallets', 'get', 'nope']);
    expect([notFound.exitCode, notFound.stderr]).toEqual([
      1,
      refusalLine(
        'Error [NOT_FOUND]: wallet not found: <wallet_id> "nope" is not one of your wallet ids (`ledger wallets list` shows them)\n',
      ),
    ]);
  });

  it('refuses a request without a key with 401 UNAUTHORIZED', async () => {
    const response = await fetch(`${baseUrl}/v1/wallets/x`);
    expect(response.status).toBe(401);
    const id = response.headers.get('request-id');
    expect(id).toMatch(/^req_anon_\d{8}$/);
    expect(await response.json()).toEqual({
      success: false,
      detail: { code: 'UNAUTHORIZED', message: expect.any(String), request_id: id },
    });
  });

  it('prints shell exports for another shell, and the key in use', async () => {
    const env = await cli.run(['sandbox', 'env']);
    expect(env.stdout).toBe(`export LEDGER_BASE_URL='${baseUrl}'\nexport LEDGER_API_KEY='${apiKey}'\n`);
    const keys = await cli.run(['sandbox', 'keys', '--json']);
    expect(JSON.parse(keys.stdout)).toMatchObject({ business_name: 'SANDBOX', api_key: apiKey });
    const status = await cli.run(['sandbox', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, base_url: baseUrl, db: ':memory:' });
  });

  it('advances the virtual clock by a human duration', async () => {
    const before = JSON.parse((await cli.run(['sandbox', 'clock', '--json'])).stdout);
    const after = JSON.parse((await cli.run(['sandbox', 'clock', 'advance', '2h', '--json'])).stdout);
    expect(after.offset_seconds - before.offset_seconds).toBe(7200);
    const bad = await cli.run(['sandbox', 'clock', 'advance', 'soon']);
    expect(bad.exitCode).toBe(2);
  });

  it('rotates the key and keeps working through the state file', async () => {
    const rotated = await cli.run(['sandbox', 'keys', 'rotate', '--quiet']);
    expect(rotated.stdout.trim()).toMatch(/^svc_test_/);
    expect(rotated.stdout.trim()).not.toBe(apiKey);
    const old = await cli.run(['sandbox', 'audit'], { env: { LEDGER_BASE_URL: baseUrl, LEDGER_API_KEY: apiKey } });
    expect([old.exitCode, old.stderr]).toEqual([
      1,
      refusalLine('Error [UNAUTHORIZED]: API key is invalid or has been rotated\n'),
    ]);
    expect((await cli.run(['sandbox', 'audit'])).exitCode).toBe(0);
    apiKey = rotated.stdout.trim();
  });
});

describe('when nothing is listening', () => {
  it('exits 3 with a hint to start the sandbox', async () => {
    const other = createCli();
    const url = `http://127.0.0.1:${await closedPort()}`;
    try {
      const r = await other.run(['wallets', 'list', '--base-url', url], {
        env: { LEDGER_API_KEY: 'svc_test_00000000000000000000000000000000' },
      });
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toBe(
        `Error [UNREACHABLE]: cannot reach the sandbox at ${url} (from --base-url) (ECONNREFUSED): start it with \`ledger sandbox start --detach\`\n`,
      );
      const status = await other.run(['sandbox', 'status', '--base-url', url]);
      expect(status.exitCode).toBe(3);
      const stop = await other.run(['sandbox', 'stop']);
      expect([stop.exitCode, stop.stderr]).toEqual([
        0,
        'No sandbox was started from this directory (no .ledger/ here or above): nothing to stop.\n',
      ]);
    } finally {
      other.cleanup();
    }
  });
});
