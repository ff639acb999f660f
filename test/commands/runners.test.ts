import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/client/errors.js';
import { runCredit } from '../../src/commands/credit.js';
import { reportError } from '../../src/cli/errors.js';
import { runAudit } from '../../src/commands/sandbox/audit.js';
import { runReset } from '../../src/commands/sandbox/reset.js';
import { runList as runTransactions } from '../../src/commands/transactions/list.js';
import { runCreate } from '../../src/commands/wallets/create.js';
import { useSandbox } from '../helpers/sandbox.js';
import { builtForAnotherNode, NATIVE_MODULE_ERROR } from '../helpers/native-module.js';
import { captureIo, refusalLine } from '../helpers/io.js';

const answers = vi.hoisted(() => ({ input: [] as string[], asked: [] as string[] }));
vi.mock('@inquirer/prompts', () => ({
  input: async ({ message }: { message: string }) => {
    answers.asked.push(message);
    return answers.input.shift() ?? '';
  },
  confirm: async () => true,
}));

const t = useSandbox({ scope: 'all', listen: true });
beforeEach(() => {
  answers.input = [];
  answers.asked = [];
});

const connect = (flags: Record<string, unknown> = {}, tty = false) =>
  captureIo(flags, { baseUrl: t.baseUrl!, apiKey: t.key, tty });

describe('sandbox reset', () => {
  it('without a terminal deletes nothing unless --yes says so; on a terminal it asks', async () => {
    const c = connect({ json: true }, false);
    await runCreate(c.io, { customerReference: 'keep-me', firstName: 'Kept', lastName: 'Safe', email: 'k@s.ng' });
    await expect(runReset(connect({}, false).io, {})).rejects.toThrow(
      new UsageError('sandbox reset deletes all your wallets and money: pass --yes to confirm (no terminal to ask on)'),
    );
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(1);
    await runReset(connect({ json: true }, true).io, {});
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
    await runCreate(c.io, { customerReference: 'again', firstName: 'A', lastName: 'Gain', email: 'a@g.ng' });
    await runReset(connect({ json: true }, false).io, { yes: true });
    expect((await t.call('GET', '/sandbox/wallets')).body.data.total).toBe(0);
  });
});

describe('wallets create', () => {
  it('asks for each missing required field on a terminal, then creates the wallet', async () => {
    answers.input = ['prompted-ref', 'Ngozi', 'ngozi@example.com'];
    const c = connect({ json: true }, true);
    await runCreate(c.io, { lastName: 'Okafor' });
    expect(answers.asked).toEqual(['Customer reference', 'First name', 'Email']);
    expect(JSON.parse(c.stdout())).toMatchObject({
      customer_reference: 'prompted-ref',
      first_name: 'Ngozi',
      last_name: 'Okafor',
      account_name: 'SANDBOX / NGOZI OKAFOR',
    });
  });

  it('never asks without a terminal: a usage error naming the flag', async () => {
    const c = connect({}, false);
    await expect(runCreate(c.io, { customerReference: 'x', firstName: 'A', lastName: 'B' })).rejects.toThrow(
      new UsageError('missing --email (no terminal to ask on)'),
    );
    // Every missing flag at once: a CI script learns of them in one run, not one a run.
    await expect(runCreate(c.io, { customerReference: 'x' })).rejects.toThrow(
      new UsageError('missing --first-name, --last-name and --email (no terminal to ask on)'),
    );
    expect(answers.asked).toEqual([]);
  });

  it('a name with a control or bidirectional formatting character is a usage error that says what is wrong', async () => {
    // Not the schema's pattern, which means nothing to a person.
    for (const firstName of ['Ada\u001b[2J', '\u202eIBO']) {
      await expect(
        runCreate(connect().io, { customerReference: 'n1', firstName, lastName: 'B', email: 'a@b.ng' }),
      ).rejects.toThrow(
        new UsageError(
          '--first-name must not contain control characters (tabs, line breaks, escape sequences) or bidirectional formatting characters',
        ),
      );
    }
  });

  it('--json prints exactly the API data; --quiet only the id; people get a record', async () => {
    const json = connect({ json: true });
    await runCreate(json.io, { customerReference: 'j1', firstName: 'A', lastName: 'B', email: 'a@b.ng' });
    const wallet = JSON.parse(json.stdout());
    expect(json.stdout()).toBe(
      `${JSON.stringify((await t.call('GET', `/v1/wallets/${wallet.id}`)).body.data, null, 2)}\n`,
    );
    const quiet = connect({ quiet: true });
    await runCreate(quiet.io, { customerReference: 'q1', firstName: 'A', lastName: 'B', email: 'a@b.ng' });
    expect(quiet.stdout()).toMatch(/^[0-9a-f-]{36}\n$/);
    const human = connect();
    await runCreate(human.io, {
      customerReference: 'h1',
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.ng',
      transfersOut: false,
    });
    expect(human.stdout()).toMatch(/^Wallet {10}[0-9a-f-]{36}\nStatus {10}ACTIVE\nBalance {9}0 \(₦0\.00\)\n/);
    expect(human.stdout()).toContain('Transfers out   disabled');
    expect(human.stdout()).not.toMatch(/\u001b\[/);
  });
});

describe('output for people', () => {
  it('shows kobo and naira, colours only on a terminal, and honours NO_COLOR', async () => {
    const wallet = (
      await t.call('POST', '/v1/wallets', {
        customer_reference: 'col',
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.ng',
      })
    ).body.data;
    const tty = connect({}, true);
    await runCredit(tty.io, wallet.account_number, '1234567', {});
    expect(tty.stdout()).toContain('1234567 (₦12,345.67)');
    expect(tty.stdout()).toMatch(/\u001b\[32mCREDITED\u001b\[39m/);
    const noColor = captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, tty: true, env: { NO_COLOR: '1' } });
    await runTransactions(noColor.io, wallet.id, {});
    expect(noColor.stdout()).not.toMatch(/\u001b\[/);
    expect(noColor.stdout()).toContain('1–1 of 1 transaction · page 1');
  });

  it('says which page comes next on stderr, for a table as for a pipe; the last page says nothing', async () => {
    const wallet = (
      await t.call('POST', '/v1/wallets', {
        customer_reference: 'pages',
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.ng',
      })
    ).body.data;
    for (let i = 0; i < 3; i++)
      await t.call('POST', '/sandbox/inbound-transfers', { account_number: wallet.account_number, amount: 100 + i });
    const table = connect({ format: 'table' });
    await runTransactions(table.io, wallet.id, { limit: '2' });
    expect(table.stdout()).toContain('1–2 of 3 transactions · page 1\n');
    expect(table.stderr()).toBe('showing 2 of 3; --all or --page 2\n');
    const piped = connect();
    await runTransactions(piped.io, wallet.id, { limit: '2' });
    expect(
      piped
        .stdout()
        .split('\n')
        .map((line) => line.split('\t')[3]),
    ).toEqual(['amount', '100', '101', undefined]);
    expect(piped.stderr()).toBe('showing 2 of 3; --all or --page 2\n');
    const last = connect();
    await runTransactions(last.io, wallet.id, { limit: '2', page: '2' });
    expect(last.stderr()).toBe('');
    // --json keeps stderr for the script, unless a person watches it.
    const json = connect({ json: true });
    await runTransactions(json.io, wallet.id, { limit: '2', json: true });
    expect(json.stderr()).toBe('');
    const watched = connect({ json: true }, true);
    await runTransactions(watched.io, wallet.id, { limit: '2', json: true });
    expect(watched.stderr()).toBe('showing 2 of 3; --all or --page 2\n');
  });
});

describe('errors and exit codes', () => {
  it('renders API refusals with their code and fields, and returns exit 1', async () => {
    const c = connect();
    const error = await runCredit(c.io, '0123456789', '100', {}).catch((e: unknown) => e);
    let stderr = '';
    expect(reportError(error, { write: (s: string) => (stderr += s) })).toBe(1);
    // The line ends with the request's id, for support to find it in the request log.
    expect(stderr).toEqual(
      refusalLine('Error [NOT_FOUND]: account 0123456789 not found: it is not one of your virtual accounts\n'),
    );
  });

  it('names the package, both Nodes and the fix when the database driver was built for another Node', () => {
    // Node's own error, as `sandbox start` under Node 24 met a better-sqlite3 built for Node 20.
    const error = builtForAnotherNode();
    let stderr = '';
    expect(reportError(error, { write: (s: string) => (stderr += s) })).toBe(1);
    expect(stderr).toBe(NATIVE_MODULE_ERROR);
    // Any other failure to load a native module stays INTERNAL, with Node's message.
    stderr = '';
    reportError(Object.assign(new Error('libfoo.so: cannot open shared object file'), { code: 'ERR_DLOPEN_FAILED' }), {
      write: (s: string) => (stderr += s),
    });
    expect(stderr).toBe('Error [INTERNAL]: libfoo.so: cannot open shared object file\n');
  });

  it('exits 1 from `sandbox audit` when an invariant is broken, after printing the problems', async () => {
    const c = connect();
    await runAudit(c.io);
    expect(c.stdout()).toMatch(/^Audit clean/);
    const wallet = (
      await t.call('POST', '/v1/wallets', {
        customer_reference: 'tamper',
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.ng',
      })
    ).body.data;
    await t.sandbox.db.updateTable('accounts').set({ balance: 1 }).where('id', '=', wallet.id).execute();
    const broken = connect();
    const error = await runAudit(broken.io).catch((e: unknown) => e);
    expect(reportError(error, { write: () => {} })).toBe(1);
    expect(broken.stdout()).toContain(
      `[balance_equals_entries] WALLET account ${wallet.id} has balance 1 but its entries sum to 0`,
    );
    // Under --json (a CI script) stderr still carries the code, as every failure's does.
    const script = connect({ json: true });
    await expect(runAudit(script.io)).rejects.toThrow();
    expect(JSON.parse(script.stdout())).toMatchObject({ ok: false });
    expect(script.stderr()).toMatch(
      /^Error \[AUDIT_FAILED\]: the audit found \d+ problems? \([a-z_, ]*balance_equals_entries[a-z_, ]*\)\n$/,
    );
    await t.sandbox.db.updateTable('accounts').set({ balance: 0 }).where('id', '=', wallet.id).execute();
  });
});

describe('transactions get', () => {
  it('shows the analysis of an inbound payment to people', async () => {
    const { runGet } = await import('../../src/commands/transactions/get.js');
    const wallet = (
      await t.call('POST', '/v1/wallets', {
        customer_reference: 'ai',
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.ng',
      })
    ).body.data;
    const credit = (
      await t.call('POST', '/sandbox/inbound-transfers', {
        account_number: wallet.account_number,
        amount: 100,
        narration: 'SALARY NOV 2026 ACME LTD',
      })
    ).body.data;
    const c = connect();
    await runGet(c.io, credit.transaction.id);
    expect(c.stdout()).toContain('Analysis          salary (Salary), confidence 0.95\n');
  });
});
