import { describe, expect, it } from 'vitest';
import { runResolve as runBankResolve } from '../../src/commands/banks/resolve.js';
import { runCredit } from '../../src/commands/credit.js';
import { reportError } from '../../src/cli/errors.js';
import { runTransfer } from '../../src/commands/transfer.js';
import { commandLines } from '../../src/main/program.js';
import { captureIo, refusalLine } from '../helpers/io.js';
import { createWallet, useSandbox } from '../helpers/sandbox.js';

/**
 * What a developer trying the tool for the first time saw after a typical slip (a wallet id
 * mistyped, a bank account without --bank), with a real sandbox behind the commands: the error
 * must say which value was wrong, in the command line's words, once.
 */

const t = useSandbox({ scope: 'all', listen: true });
const connect = () => captureIo({}, { baseUrl: t.baseUrl!, apiKey: t.key, env: { NO_COLOR: '1' } });

/** The id with its last character mistyped. */
const typo = (id: string) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;

/** What the command printed on stderr when it failed, and its exit code. */
async function failure(run: (io: ReturnType<typeof connect>['io']) => Promise<void>): Promise<[number, string]> {
  const c = connect();
  let err = '';
  const code = await run(c.io).then(
    () => 0,
    (error: unknown) => reportError(error, { write: (text: string) => (err += text) }),
  );
  return [code, err];
}

describe('a wallet id mistyped', () => {
  it('`transfer A B` with either id mistyped names the argument, and where the ids are', async () => {
    const ada = await createWallet(t, 500_000);
    const bola = await createWallet(t);
    const typoTo = typo(bola.id);
    expect(await failure((io) => runTransfer(io, ada.id, typoTo, '1000', {}))).toEqual([
      1,
      refusalLine(
        `Error [NOT_FOUND]: wallet not found: <to> "${typoTo}" is not one of your wallet ids nor a 10-digit account number ` +
          '(`ledger wallets list` shows them)\n',
      ),
    ]);
    const typoFrom = typo(ada.id);
    expect(await failure((io) => runTransfer(io, typoFrom, bola.id, '1000', {}))).toEqual([
      1,
      refusalLine(
        `Error [NOT_FOUND]: wallet not found: <from_wallet_id> "${typoFrom}" is not one of your wallet ids (\`ledger wallets list\` shows them)\n`,
      ),
    ]);
    expect(await failure((io) => runCredit(io, typoTo, '1000', {}))).toEqual([
      1,
      refusalLine(
        `Error [NOT_FOUND]: wallet not found: <account> "${typoTo}" is not one of your wallet ids nor a 10-digit account number ` +
          '(`ledger wallets list` shows them)\n',
      ),
    ]);
    // Nothing moved.
    expect((await t.call('GET', `/v1/wallets/${ada.id}`)).body.data.balance).toBe(500_000);
    expect((await t.call('GET', `/v1/wallets/${bola.id}`)).body.data.balance).toBe(0);
  });
});

describe('a bank account without --bank', () => {
  it('says the reason once, naming --bank, not the API field destination_bank_code', async () => {
    const ada = await createWallet(t, 500_000);
    expect(await failure((io) => runTransfer(io, ada.id, '0123456785', '100000', { yes: true }))).toEqual([
      1,
      refusalLine(
        'Error [VALIDATION_ERROR]: --bank: required: the destination account number is not one of your wallets, so this is an external transfer\n',
      ),
    ]);
    expect((await t.call('GET', `/v1/wallets/${ada.id}`)).body.data.balance).toBe(500_000);
  });
});

describe('a bank code that is not listed', () => {
  it('an unknown bank code names the command that lists the banks', async () => {
    const ada = await createWallet(t, 500_000);
    const listed = refusalLine(
      'Error [INVALID_BANK_CODE]: bank code 999 is not in the list of banks: `ledger banks list --search <name>` shows the codes\n',
    );
    expect(await failure((io) => runBankResolve(io, '0123456785', '999'))).toEqual([1, listed]);
    expect(await failure((io) => runTransfer(io, ada.id, '0123456785', '100000', { bank: '999', yes: true }))).toEqual([
      1,
      listed,
    ]);
    expect((await t.call('GET', `/v1/wallets/${ada.id}`)).body.data.balance).toBe(500_000);
  });
});

describe('a transfer to the wallet it comes from', () => {
  it('a transfer to its own wallet is refused once, naming <to>', async () => {
    const ada = await createWallet(t, 500_000);
    expect(await failure((io) => runTransfer(io, ada.id, ada.id, '100', {}))).toEqual([
      1,
      refusalLine('Error [VALIDATION_ERROR]: <to>: is the source wallet itself\n'),
    ]);
  });
});

describe('an id copied from a table, or mistyped', () => {
  /** A command line as typed, run through the program, its exit code and stderr. */
  async function line(...words: string[]): Promise<[number, string]> {
    let err = '';
    const exit = await commandLines.run(words, [], {
      sources: {
        stdout: { write: () => {} },
        stderr: { write: (s: string) => (err += s) },
        env: { LEDGER_BASE_URL: t.baseUrl!, LEDGER_API_KEY: t.key, NO_COLOR: '1' },
        cwd: '/nonexistent',
      },
      exitCode: 0,
    });
    return [exit, err];
  }

  it('the start of an id names its record; several are listed (exit 2); one that starts none says so', async () => {
    // The start is what a table's shortened id gives when copied without its ….
    const ada = await createWallet(t, 1_000);
    await t.call('POST', '/sandbox/inbound-transfers', {
      account_number: ada.account_number,
      amount: 70_000,
      narration: 'asdfgh',
    });
    const items = (await t.call('GET', '/v1/suspense?status=PENDING')).body.data.items;
    const item = items.at(-1);
    const shown = item.id.slice(0, 24);
    expect(items.filter((i: { id: string }) => i.id.startsWith(shown))).toHaveLength(1);
    expect(await line('suspense', 'show', shown)).toEqual([
      0,
      `Resolve it with \`ledger suspense resolve ${item.id}\`: on a terminal it asks for the action and the wallet, and asks again before money moves.\n`,
    ]);
    // Ids made in the same millisecond share their first 13 characters (the time): that start names every delivery.
    const logs = (await t.call('GET', '/v1/webhook-logs?limit=100')).body.data.items.filter((l: { id: string }) =>
      l.id.startsWith(item.id.slice(0, 8)),
    );
    expect(logs.length).toBeGreaterThan(1);
    const [exit, err] = await line('webhooks', 'retry', item.id.slice(0, 8));
    expect([exit, err.split('\n')[0]]).toEqual([
      2,
      `Error [AMBIGUOUS]: <log_id> "${item.id.slice(0, 8)}" names ` +
        `${Math.min(logs.length, 10)}${logs.length > 10 ? ' or more' : ''} webhook logs: give more of the id`,
    ]);
    const missing = `${item.id.slice(0, 9)}${item.id[9] === 'f' ? '0' : 'f'}`;
    expect(await line('suspense', 'show', missing)).toEqual([
      1,
      `Error [NOT_FOUND]: suspense item not found: <suspense_id> "${missing}" is the start of none of your suspense item ids ` +
        '(`ledger suspense list` shows them)\n',
    ]);
  });

  it('`wallets get`, `transactions get`, `agents toggle` with a mistyped id say which argument, and the command that lists them', async () => {
    const ada = await createWallet(t, 1_000);
    const tx = (await t.call('GET', `/v1/wallets/${ada.id}/transactions`)).body.data.items[0];
    expect(await line('wallets', 'get', typo(ada.id))).toEqual([
      1,
      refusalLine(
        `Error [NOT_FOUND]: wallet not found: <wallet_id> "${typo(ada.id)}" is not one of your wallet ids (\`ledger wallets list\` shows them)\n`,
      ),
    ]);
    expect(await line('transactions', 'get', typo(tx.id))).toEqual([
      1,
      refusalLine(
        `Error [NOT_FOUND]: transaction not found: <transaction_id> "${typo(tx.id)}" is not one of your transaction ids ` +
          '(`ledger transactions list <wallet_id>` shows them)\n',
      ),
    ]);
    expect(await line('agents', 'toggle', ada.id, typo(ada.id), '--off')).toEqual([
      1,
      refusalLine(
        `Error [NOT_FOUND]: agent not found: <agent_id> "${typo(ada.id)}" is not one of your agent ids (\`ledger agents list\` shows them)\n`,
      ),
    ]);
  });
});
